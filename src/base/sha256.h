/* sha256.h - SHA-256: the one hash of icon contents, of the inputs'
 * fingerprint and of the plan's key
 *
 * Nettle's, the library GnuTLS (and so apt) is built on: it uses the
 * CPU's SHA instructions where there are some.  GLib's GChecksum, which
 * this replaces (the same digests), was a sixth of a full rebuild's
 * instructions.
 */
#ifndef KIC_SHA256_H
#define KIC_SHA256_H

#include <glib.h>
#include <nettle/sha2.h>

#define KIC_SHA256_LEN 32
#define KIC_SHA256_HEX_LEN 64

typedef struct {
  struct sha256_ctx ctx;
} KicSha256;

void kic_sha256_init (KicSha256 *sha);
void kic_sha256_update (KicSha256 *sha, const void *data, gsize length);
/* ... the bytes of the string S, without its NUL */
void kic_sha256_update_str (KicSha256 *sha, const char *s);
/* SUM gets the digest, and SHA starts again */
void kic_sha256_digest (KicSha256 *sha, guint8 sum[KIC_SHA256_LEN]);
/* ... in lower-case hex: HEX gets 64 digits and a NUL */
void kic_sha256_digest_hex (KicSha256 *sha, char hex[KIC_SHA256_HEX_LEN + 1]);
/* ... as a new string.  transfer full */
char *kic_sha256_dup_hex (KicSha256 *sha);

/* The SHA-256 of LENGTH bytes at DATA */
void kic_sha256_of (const void *data, gsize length, guint8 sum[KIC_SHA256_LEN]);
/* SUM in lower-case hex (64 digits and a NUL) */
void kic_sha256_hex (const guint8 sum[KIC_SHA256_LEN], char hex[KIC_SHA256_HEX_LEN + 1]);

#endif
