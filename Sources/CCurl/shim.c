#define _GNU_SOURCE
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Debian's libcurl4 (libcurl4-openssl-dev's run-time library: OpenSSL).
static const char *const library_name = "libcurl.so.4";

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

static void *symbol(void *library, const char *name) {
  void *address = dlsym(library, name);
  if (address == NULL && failure[0] == 0) {
    snprintf(failure, sizeof failure, "%s has no %s", library_name, name);
  }
  return address;
}

static void open_library(void) {
  // RTLD_LAZY, as a linked library is bound: a function when first called.
  void *library = dlopen(library_name, RTLD_LAZY | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(failure, sizeof failure, "%s", reason != NULL ? reason : library_name);
    return;
  }
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

static void initialise(void) {
  pthread_once(&open_once, open_library);
  if (failure[0] != 0) return;
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
  // With its TLS library (`7.88.1, OpenSSL/3.0.15`), as curl --version
  // names it: a TLS failure's message depends on it.
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
