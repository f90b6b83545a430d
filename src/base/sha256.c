/* sha256.c - SHA-256 through Nettle (sha256.h) */
#include "sha256.h"

#include <string.h>

void
kic_sha256_init (KicSha256 *sha)
{
  sha256_init (&sha->ctx);
}

void
kic_sha256_update (KicSha256 *sha, const void *data, gsize length)
{
  sha256_update (&sha->ctx, length, data);
}

void
kic_sha256_update_str (KicSha256 *sha, const char *s)
{
  kic_sha256_update (sha, s, strlen (s));
}

void
kic_sha256_digest (KicSha256 *sha, guint8 sum[KIC_SHA256_LEN])
{
  sha256_digest (&sha->ctx, KIC_SHA256_LEN, sum);
}

void
kic_sha256_digest_hex (KicSha256 *sha, char hex[KIC_SHA256_HEX_LEN + 1])
{
  guint8 sum[KIC_SHA256_LEN];

  kic_sha256_digest (sha, sum);
  kic_sha256_hex (sum, hex);
}

char *
kic_sha256_dup_hex (KicSha256 *sha)
{
  char hex[KIC_SHA256_HEX_LEN + 1];

  kic_sha256_digest_hex (sha, hex);
  return g_strdup (hex);
}

void
kic_sha256_of (const void *data, gsize length, guint8 sum[KIC_SHA256_LEN])
{
  KicSha256 sha;

  kic_sha256_init (&sha);
  kic_sha256_update (&sha, data, length);
  kic_sha256_digest (&sha, sum);
}

void
kic_sha256_hex (const guint8 sum[KIC_SHA256_LEN], char hex[KIC_SHA256_HEX_LEN + 1])
{
  static const char digits[] = "0123456789abcdef";

  for (guint i = 0; i < KIC_SHA256_LEN; i++)
    {
      hex[2 * i] = digits[sum[i] >> 4];
      hex[2 * i + 1] = digits[sum[i] & 15];
    }
  hex[KIC_SHA256_HEX_LEN] = '\0';
}
