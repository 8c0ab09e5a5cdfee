#ifndef TPNS_CCURL_H
#define TPNS_CCURL_H

#include <curl/curl.h>
#include <stddef.h>

// libcurl, loaded at run time (dlopen of libcurl.so.4), behind typed wrappers
// of its variadic calls, which Swift cannot make.
//
// Why not linked: loading libcurl and the libraries it needs (OpenSSL,
// Kerberos, LDAP, ...) is most of a short command's time; loaded when first
// needed, only a command that sends pays it, and a missing libcurl is an
// error that says what to install instead of a loader's refusal to start.

/// Loads libcurl and calls curl_global_init(CURL_GLOBAL_DEFAULT), once per
/// process however often it is called. NULL on success, else why it failed
/// (`libcurl.so.4: cannot open shared object file: ...`). Every other call
/// below needs it first.
const char *tpns_curl_load(void);

/// The version of the libcurl loaded (`7.88.1`; loaded, not initialised),
/// or "unavailable" if it cannot be loaded.
const char *tpns_curl_version(void);

CURL *tpns_curl_easy_init(void);
void tpns_curl_easy_cleanup(CURL *handle);
void tpns_curl_easy_reset(CURL *handle);
CURLcode tpns_curl_easy_perform(CURL *handle);
const char *tpns_curl_easy_strerror(CURLcode code);
struct curl_slist *tpns_curl_slist_append(struct curl_slist *list, const char *text);
void tpns_curl_slist_free_all(struct curl_slist *list);

CURLcode tpns_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode tpns_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode tpns_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode tpns_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value);

typedef size_t (*tpns_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*tpns_curl_progress_callback)(void *context, curl_off_t download_total,
                                           curl_off_t downloaded, curl_off_t upload_total,
                                           curl_off_t uploaded);

CURLcode tpns_curl_set_write_callback(CURL *handle, tpns_curl_data_callback callback,
                                      void *context);
CURLcode tpns_curl_set_header_callback(CURL *handle, tpns_curl_data_callback callback,
                                       void *context);
/// Installs a progress callback (and turns progress reporting on): returning
/// non-zero aborts the transfer, which is how a request is cancelled.
CURLcode tpns_curl_set_progress_callback(CURL *handle, tpns_curl_progress_callback callback,
                                         void *context);
/// The POST body, copied by libcurl (so the caller's buffer may go away).
CURLcode tpns_curl_set_post_body(CURL *handle, const char *body, long length);

CURLcode tpns_curl_get_response_code(CURL *handle, long *code);

/// Allows only http and https (CURLOPT_PROTOCOLS_STR from libcurl 7.85,
/// CURLOPT_PROTOCOLS before it: the libcurl loaded decides).
CURLcode tpns_curl_allow_http_only(CURL *handle);

#endif
