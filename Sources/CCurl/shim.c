#define _GNU_SOURCE
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The sonames tried, in order: Debian's libcurl3-gnutls (git's), then
// libcurl4 (OpenSSL, curl's). The same API and ABI (soname 4); the GnuTLS
// flavour loads and initialises in 1.6 M fewer instructions and 40 fewer
// page faults (libcrypto's relocations, and OpenSSL reading its
// configuration and error strings at curl_global_init), 0.5-0.7 ms.
static const char *const library_names[] = {"libcurl-gnutls.so.4", "libcurl.so.4"};
// The one loaded (or the first tried, for a message when none is).
static const char *library_name = "libcurl-gnutls.so.4";

// libcurl's functions, found by name once loaded.
static struct {
  CURLcode (*global_init)(long flags);
  curl_version_info_data *(*version_info)(CURLversion version);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *handle);
  void (*easy_reset)(CURL *handle);
  CURLcode (*easy_perform)(CURL *handle);
  const char *(*easy_strerror)(CURLcode code);
  CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
  CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
  void (*slist_free_all)(struct curl_slist *list);
} curl;

// Loading (dlopen and dlsym) and initialising are two steps: --version needs
// only the first (curl_version_info needs no curl_global_init).
static pthread_once_t open_once = PTHREAD_ONCE_INIT;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static char failure[512];
// dlopen's handle of the library loaded.
static void *loaded_library;

static void *symbol(void *library, const char *name) {
  void *address = dlsym(library, name);
  if (address == NULL && failure[0] == 0) {
    snprintf(failure, sizeof failure, "%s has no %s", library_name, name);
  }
  return address;
}

static void open_library(void) {
  // RTLD_LAZY, as the libraries would be bound if linked: RTLD_NOW binds
  // every function of all thirty at once (10,705 relocations instead of
  // 8,868, 3.4 M instructions more, measured with callgrind).
  //
  // RTLD_DEEPBIND: their symbols are looked up among themselves (libc
  // included) before the program's own scope, where every lookup would
  // first miss in tpns and libstdc++ (2.8 M instructions, a third of the
  // loading). Not when LD_PRELOAD is set: a preloaded allocator or hook
  // must stay in front of them, as it would for a linked library.
  int flags = RTLD_LAZY | RTLD_LOCAL;
  const char *preload = getenv("LD_PRELOAD");
  if (preload == NULL || preload[0] == 0) flags |= RTLD_DEEPBIND;
  void *library = NULL;
  for (size_t index = 0; index < sizeof library_names / sizeof *library_names; index++) {
    library = dlopen(library_names[index], flags);
    if (library != NULL) {
      library_name = library_names[index];
      break;
    }
    if (index == 0) {
      const char *reason = dlerror();
      snprintf(failure, sizeof failure, "%s", reason != NULL ? reason : library_name);
    }
  }
  if (library == NULL) return;
  loaded_library = library;
  failure[0] = 0;
  *(void **)&curl.global_init = symbol(library, "curl_global_init");
  *(void **)&curl.version_info = symbol(library, "curl_version_info");
  *(void **)&curl.easy_init = symbol(library, "curl_easy_init");
  *(void **)&curl.easy_cleanup = symbol(library, "curl_easy_cleanup");
  *(void **)&curl.easy_reset = symbol(library, "curl_easy_reset");
  *(void **)&curl.easy_perform = symbol(library, "curl_easy_perform");
  *(void **)&curl.easy_strerror = symbol(library, "curl_easy_strerror");
  *(void **)&curl.easy_setopt = symbol(library, "curl_easy_setopt");
  *(void **)&curl.easy_getinfo = symbol(library, "curl_easy_getinfo");
  *(void **)&curl.slist_append = symbol(library, "curl_slist_append");
  *(void **)&curl.slist_free_all = symbol(library, "curl_slist_free_all");
}

// libssh2_init's flag that leaves the crypto library alone (libssh2.h).
#define TPNS_LIBSSH2_INIT_NO_CRYPTO 0x0001

static void initialise(void) {
  pthread_once(&open_once, open_library);
  if (failure[0] != 0) return;
  // Debian's libcurl (either flavour) links libssh2, which curl_global_init
  // initialises with libssh2_init(0): that initialises OpenSSL's libcrypto
  // (its engines, its error strings: 0.9 M instructions and some 45 page
  // faults, a third of curl_global_init and more than the request), for SSH
  // transfers tpns never makes (only http and https are allowed, see
  // tpns_curl_allow_http_only). libssh2 initialises once, whatever the later
  // calls ask: initialised first without its crypto, curl's call finds it
  // done. A libcurl without libssh2 has no such symbol, and nothing to skip.
  int (*ssh2_init)(int flags);
  *(void **)&ssh2_init = dlsym(loaded_library, "libssh2_init");
  if (ssh2_init != NULL) ssh2_init(TPNS_LIBSSH2_INIT_NO_CRYPTO);
  CURLcode result = curl.global_init(CURL_GLOBAL_DEFAULT);
  if (result != CURLE_OK) {
    snprintf(failure, sizeof failure, "curl_global_init failed: %s", curl.easy_strerror(result));
  }
}

const char *tpns_curl_load(void) {
  pthread_once(&init_once, initialise);
  return failure[0] != 0 ? failure : NULL;
}

const char *tpns_curl_version(void) {
  // Loaded, not initialised: curl_version_info needs no curl_global_init.
  pthread_once(&open_once, open_library);
  if (failure[0] != 0) return "unavailable";
  curl_version_info_data *info = curl.version_info(CURLVERSION_NOW);
  if (info == NULL || info->version == NULL) return "unknown";
  // With its TLS library (`7.88.1, GnuTLS/3.7.9`): which of the two sonames
  // was loaded shows in the errors a TLS failure gives.
  static char text[160];
  if (info->ssl_version != NULL) {
    snprintf(text, sizeof text, "%s, %s", info->version, info->ssl_version);
    return text;
  }
  return info->version;
}

CURL *tpns_curl_easy_init(void) { return curl.easy_init(); }
void tpns_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void tpns_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode tpns_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *tpns_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

struct curl_slist *tpns_curl_slist_append(struct curl_slist *list, const char *text) {
  return curl.slist_append(list, text);
}

void tpns_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode tpns_curl_set_long(CURL *handle, CURLoption option, long value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_string(CURL *handle, CURLoption option, const char *value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_write_callback(CURL *handle, tpns_curl_data_callback callback,
                                      void *context) {
  CURLcode result = curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
  if (result != CURLE_OK) return result;
  return curl.easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

CURLcode tpns_curl_set_header_callback(CURL *handle, tpns_curl_data_callback callback,
                                       void *context) {
  CURLcode result = curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
  if (result != CURLE_OK) return result;
  return curl.easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

CURLcode tpns_curl_set_progress_callback(CURL *handle, tpns_curl_progress_callback callback,
                                         void *context) {
  CURLcode result = curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
  if (result != CURLE_OK) return result;
  result = curl.easy_setopt(handle, CURLOPT_XFERINFODATA, context);
  if (result != CURLE_OK) return result;
  return curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
}

CURLcode tpns_curl_set_post_body(CURL *handle, const char *body, long length) {
  CURLcode result = curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
  if (result != CURLE_OK) return result;
  return curl.easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, body);
}

CURLcode tpns_curl_get_response_code(CURL *handle, long *code) {
  return curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}

CURLcode tpns_curl_allow_http_only(CURL *handle) {
#ifdef CURLOPT_PROTOCOLS_STR
  // Refused (CURLE_UNKNOWN_OPTION) by a libcurl older than 7.85: then the
  // bit mask, which later ones still take.
  CURLcode result = curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  if (result != CURLE_UNKNOWN_OPTION) return result;
#endif
  return curl.easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
}
