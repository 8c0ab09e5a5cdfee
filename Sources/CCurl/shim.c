#include "CCurl.h"

#include <pthread.h>

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_result = CURLE_OK;

static void global_init(void) { global_result = curl_global_init(CURL_GLOBAL_DEFAULT); }

CURLcode tpns_curl_global_init(void) {
  pthread_once(&global_once, global_init);
  return global_result;
}

const char *tpns_curl_version(void) {
  curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
  return info != NULL && info->version != NULL ? info->version : "unknown";
}

CURLcode tpns_curl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

CURLcode tpns_curl_set_write_callback(CURL *handle, tpns_curl_data_callback callback,
                                      void *context) {
  CURLcode result = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
  if (result != CURLE_OK) return result;
  return curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

CURLcode tpns_curl_set_header_callback(CURL *handle, tpns_curl_data_callback callback,
                                       void *context) {
  CURLcode result = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
  if (result != CURLE_OK) return result;
  return curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

CURLcode tpns_curl_set_progress_callback(CURL *handle, tpns_curl_progress_callback callback,
                                         void *context) {
  CURLcode result = curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
  if (result != CURLE_OK) return result;
  result = curl_easy_setopt(handle, CURLOPT_XFERINFODATA, context);
  if (result != CURLE_OK) return result;
  return curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
}

CURLcode tpns_curl_set_post_body(CURL *handle, const char *body, long length) {
  CURLcode result = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
  if (result != CURLE_OK) return result;
  return curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, body);
}

CURLcode tpns_curl_get_response_code(CURL *handle, long *code) {
  return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}

CURLcode tpns_curl_allow_http_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
  return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}
