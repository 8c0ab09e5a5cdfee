// Typed wrappers over GnuTLS for the emulator's https: checking a certificate and
// key given with --tls-cert/--tls-key, and making the throwaway certificate of
// `tpns-server exec --tls`. GnuTLS is what Debian's libmicrohttpd serves TLS with.
#ifndef TPNS_CGNUTLS_H
#define TPNS_CGNUTLS_H

#include <stddef.h>

/// What `tpns_tls_check` found wrong with a certificate and its key.
enum __attribute__((enum_extensibility(closed))) tpns_tls_problem {
  TPNS_TLS_OK,
  /// The certificate file holds no PEM certificate that GnuTLS reads.
  TPNS_TLS_CERTIFICATE_NOT_PEM,
  /// The key file holds no unencrypted PEM private key that GnuTLS reads.
  TPNS_TLS_KEY_NOT_PEM,
  /// The key is not the one the certificate was issued for.
  TPNS_TLS_KEY_MISMATCH,
};

/// Checks that `certificate` (PEM, the server's certificate first, then any chain)
/// and `key` (PEM) can serve TLS together. On a problem, `reason` (of `capacity`
/// bytes, NUL-terminated) holds GnuTLS's own words for it.
enum tpns_tls_problem tpns_tls_check(const char *_Nonnull certificate, size_t certificate_length,
                                     const char *_Nonnull key, size_t key_length,
                                     char *_Nonnull reason, size_t capacity);

/// A certificate and its private key, both PEM, NUL-terminated; free with
/// `tpns_tls_free_identity`.
struct tpns_tls_identity {
  char *_Nullable certificate;
  char *_Nullable key;
};

/// Makes a new ECDSA P-256 key and a self-signed certificate for it, valid from an
/// hour ago for `days` days, for `localhost`, 127.0.0.1 and ::1 (subjectAltName), and
/// marked as a CA (basicConstraints CA:TRUE, keyCertSign) so that a client given it as
/// its CA file (libcurl's CAINFO, OpenSSL's) trusts the server that presents it.
/// Returns 0, or a GnuTLS error code (negative) with `identity` left empty.
int tpns_tls_make_self_signed(unsigned int days, struct tpns_tls_identity *_Nonnull identity);

/// GnuTLS's text for an error code.
const char *_Nonnull tpns_tls_error_text(int code);

void tpns_tls_free_identity(struct tpns_tls_identity *_Nonnull identity);

#endif
