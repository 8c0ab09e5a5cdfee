#include "CGnuTLS.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <string.h>
#include <time.h>

static void describe(int code, char *reason, size_t capacity) {
  if (capacity == 0) return;
  strncpy(reason, gnutls_strerror(code), capacity - 1);
  reason[capacity - 1] = '\0';
}

enum tpns_tls_problem tpns_tls_check(const char *certificate, size_t certificate_length,
                                     const char *key, size_t key_length, char *reason,
                                     size_t capacity) {
  reason[0] = '\0';
  gnutls_datum_t certificate_data = {(unsigned char *)certificate, (unsigned int)certificate_length};
  gnutls_datum_t key_data = {(unsigned char *)key, (unsigned int)key_length};

  // Each file apart first, so that the error names the one at fault.
  gnutls_x509_crt_t *list = NULL;
  unsigned int count = 0;
  int code = gnutls_x509_crt_list_import2(&list, &count, &certificate_data, GNUTLS_X509_FMT_PEM, 0);
  if (code < 0 || count == 0) {
    describe(code < 0 ? code : GNUTLS_E_BASE64_DECODING_ERROR, reason, capacity);
    return TPNS_TLS_CERTIFICATE_NOT_PEM;
  }
  for (unsigned int i = 0; i < count; i++) gnutls_x509_crt_deinit(list[i]);
  gnutls_free(list);

  gnutls_x509_privkey_t private_key;
  gnutls_x509_privkey_init(&private_key);
  // No password: an encrypted key cannot be served (libmicrohttpd is given none).
  code = gnutls_x509_privkey_import2(private_key, &key_data, GNUTLS_X509_FMT_PEM, NULL, 0);
  gnutls_x509_privkey_deinit(private_key);
  if (code < 0) {
    describe(code, reason, capacity);
    return TPNS_TLS_KEY_NOT_PEM;
  }

  // What libmicrohttpd does with them: this also checks that they belong together.
  gnutls_certificate_credentials_t credentials;
  gnutls_certificate_allocate_credentials(&credentials);
  code = gnutls_certificate_set_x509_key_mem2(credentials, &certificate_data, &key_data,
                                              GNUTLS_X509_FMT_PEM, NULL, 0);
  gnutls_certificate_free_credentials(credentials);
  if (code < 0) {
    describe(code, reason, capacity);
    return code == GNUTLS_E_CERTIFICATE_KEY_MISMATCH ? TPNS_TLS_KEY_MISMATCH
                                                      : TPNS_TLS_CERTIFICATE_NOT_PEM;
  }
  return TPNS_TLS_OK;
}

/// A copy of `datum` as a NUL-terminated string (malloc'd), or NULL.
static char *copy_text(const gnutls_datum_t *datum) {
  char *text = gnutls_malloc(datum->size + 1);
  if (text == NULL) return NULL;
  memcpy(text, datum->data, datum->size);
  text[datum->size] = '\0';
  return text;
}

int tpns_tls_make_self_signed(unsigned int days, struct tpns_tls_identity *identity) {
  identity->certificate = NULL;
  identity->key = NULL;
  gnutls_x509_privkey_t key = NULL;
  gnutls_x509_crt_t certificate = NULL;
  gnutls_datum_t certificate_pem = {NULL, 0};
  gnutls_datum_t key_pem = {NULL, 0};
  int code;

#define CHECK(call) \
  if ((code = (call)) < 0) goto done

  CHECK(gnutls_x509_privkey_init(&key));
  CHECK(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA,
                                     GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0));
  CHECK(gnutls_x509_crt_init(&certificate));
  CHECK(gnutls_x509_crt_set_version(certificate, 3));
  // A random positive serial: two runs' certificates are never taken for one.
  unsigned char serial[16];
  CHECK(gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof serial));
  serial[0] &= 0x7f;
  CHECK(gnutls_x509_crt_set_serial(certificate, serial, sizeof serial));
  time_t now = time(NULL);
  // An hour back: a client whose clock is a little behind still accepts it.
  CHECK(gnutls_x509_crt_set_activation_time(certificate, now - 3600));
  CHECK(gnutls_x509_crt_set_expiration_time(certificate, now + (time_t)days * 86400));
  static const char name[] = "tpns-server exec --tls";
  CHECK(gnutls_x509_crt_set_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, name,
                                      sizeof name - 1));
  CHECK(gnutls_x509_crt_set_key(certificate, key));
  CHECK(gnutls_x509_crt_set_basic_constraints(certificate, 1, 0));
  CHECK(gnutls_x509_crt_set_key_usage(certificate,
                                      GNUTLS_KEY_DIGITAL_SIGNATURE | GNUTLS_KEY_KEY_CERT_SIGN));
  CHECK(gnutls_x509_crt_set_key_purpose_oid(certificate, GNUTLS_KP_TLS_WWW_SERVER, 0));
  static const char localhost[] = "localhost";
  CHECK(gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_DNSNAME, localhost,
                                             sizeof localhost - 1, GNUTLS_FSAN_APPEND));
  static const unsigned char loopback4[4] = {127, 0, 0, 1};
  CHECK(gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, loopback4,
                                             sizeof loopback4, GNUTLS_FSAN_APPEND));
  static const unsigned char loopback6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  CHECK(gnutls_x509_crt_set_subject_alt_name(certificate, GNUTLS_SAN_IPADDRESS, loopback6,
                                             sizeof loopback6, GNUTLS_FSAN_APPEND));
  unsigned char key_id[64];
  size_t key_id_size = sizeof key_id;
  CHECK(gnutls_x509_crt_get_key_id(certificate, 0, key_id, &key_id_size));
  CHECK(gnutls_x509_crt_set_subject_key_id(certificate, key_id, key_id_size));
  CHECK(gnutls_x509_crt_sign2(certificate, certificate, key, GNUTLS_DIG_SHA256, 0));
  CHECK(gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &certificate_pem));
  CHECK(gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &key_pem));
  identity->certificate = copy_text(&certificate_pem);
  identity->key = copy_text(&key_pem);
  if (identity->certificate == NULL || identity->key == NULL) {
    code = GNUTLS_E_MEMORY_ERROR;
  }
#undef CHECK

done:
  if (key_pem.data != NULL) {
    memset(key_pem.data, 0, key_pem.size);
    gnutls_free(key_pem.data);
  }
  gnutls_free(certificate_pem.data);
  if (certificate != NULL) gnutls_x509_crt_deinit(certificate);
  if (key != NULL) gnutls_x509_privkey_deinit(key);
  if (code < 0) tpns_tls_free_identity(identity);
  return code < 0 ? code : 0;
}

const char *tpns_tls_error_text(int code) { return gnutls_strerror(code); }

void tpns_tls_free_identity(struct tpns_tls_identity *identity) {
  if (identity->key != NULL) {
    memset(identity->key, 0, strlen(identity->key));
    gnutls_free(identity->key);
  }
  gnutls_free(identity->certificate);
  identity->certificate = NULL;
  identity->key = NULL;
}
