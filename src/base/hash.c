/* hash.c - the hashes of tables and of the cache files (hash.h) */
#include "hash.h"

#include <string.h>

/* kic_checksum64()'s number: eight bytes a step */
static guint64
hash64 (const void *data, gsize length)
{
  const guchar *p = data;
  guint64 h = 0x243f6a8885a308d3ULL ^ ((guint64) length * 0x9e3779b97f4a7c15ULL);
  gsize i = 0;

  /* eight bytes a step, each word mixed in by a multiply and a rotation
   * (every bit of it reaches every bit of H), then a final avalanche
   * (MurmurHash3's fmix64): one byte changed anywhere changes about half
   * the bits of the result */
  for (; i + 8 <= length; i += 8)
    {
      guint64 w;

      memcpy (&w, p + i, 8);
      w *= 0x87c37b91114253d5ULL;
      w = (w << 31) | (w >> 33);
      h ^= w * 0x4cf5ad432745937fULL;
      h = ((h << 27) | (h >> 37)) * 5 + 0x52dce729;
    }
  {
    guint64 w = 0;

    for (gsize k = 0; i + k < length; k++)
      w |= (guint64) p[i + k] << (8 * k);
    w *= 0x87c37b91114253d5ULL;
    w = (w << 31) | (w >> 33);
    h ^= w * 0x4cf5ad432745937fULL;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

char *
kic_checksum64 (const void *data, gsize length)
{
  return g_strdup_printf ("%016" G_GINT64_MODIFIER "x", hash64 (data, length));
}

#define SIP_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

/* (inlined where the rounds are constants: kic_str_hash()'s loops unroll) */
G_ALWAYS_INLINE static inline guint64
siphash (const guint64 key[2], const void *data, gsize length, guint c_rounds, guint d_rounds)
{
  /* (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012:
   * the state, a round, and the padding as the paper gives them) */
  guint64 v0 = 0x736f6d6570736575ULL ^ key[0];
  guint64 v1 = 0x646f72616e646f6dULL ^ key[1];
  guint64 v2 = 0x6c7967656e657261ULL ^ key[0];
  guint64 v3 = 0x7465646279746573ULL ^ key[1];
  guint64 last = (guint64) length << 56;
  const guchar *p = data;
  gsize i = 0;

#define SIP_ROUND                                                                                  \
  do                                                                                               \
    {                                                                                              \
      v0 += v1, v1 = SIP_ROTL (v1, 13), v1 ^= v0, v0 = SIP_ROTL (v0, 32);                          \
      v2 += v3, v3 = SIP_ROTL (v3, 16), v3 ^= v2;                                                  \
      v0 += v3, v3 = SIP_ROTL (v3, 21), v3 ^= v0;                                                  \
      v2 += v1, v1 = SIP_ROTL (v1, 17), v1 ^= v2, v2 = SIP_ROTL (v2, 32);                          \
    }                                                                                              \
  while (0)
  for (; i + 8 <= length; i += 8)
    {
      guint64 m;

      memcpy (&m, p + i, 8);
      m = GUINT64_FROM_LE (m);
      v3 ^= m;
      for (guint r = 0; r < c_rounds; r++)
        SIP_ROUND;
      v0 ^= m;
    }
  /* the last 0 to 7 bytes, little-endian (unrolled: kic_str_hash()'s
   * keys end anywhere, and a loop here showed in its cost) */
  switch (length - i)
    {
    case 7:
      last |= (guint64) p[i + 6] << 48;
      G_GNUC_FALLTHROUGH;
    case 6:
      last |= (guint64) p[i + 5] << 40;
      G_GNUC_FALLTHROUGH;
    case 5:
      last |= (guint64) p[i + 4] << 32;
      G_GNUC_FALLTHROUGH;
    case 4:
      last |= (guint64) p[i + 3] << 24;
      G_GNUC_FALLTHROUGH;
    case 3:
      last |= (guint64) p[i + 2] << 16;
      G_GNUC_FALLTHROUGH;
    case 2:
      last |= (guint64) p[i + 1] << 8;
      G_GNUC_FALLTHROUGH;
    case 1:
      last |= (guint64) p[i];
      break;
    default:
      break;
    }
  v3 ^= last;
  for (guint r = 0; r < c_rounds; r++)
    SIP_ROUND;
  v0 ^= last;
  v2 ^= 0xff;
  for (guint r = 0; r < d_rounds; r++)
    SIP_ROUND;
#undef SIP_ROUND
  return v0 ^ v1 ^ v2 ^ v3;
}

guint64
kic_siphash (const guint64 key[2], const void *data, gsize length, guint c_rounds, guint d_rounds)
{
  return siphash (key, data, length, c_rounds, d_rounds);
}

guint
kic_str_hash (gconstpointer key)
{
  /* this process's key, drawn once (GLib seeds its generator from
   * /dev/urandom): names chosen to collide under one run's key collide
   * under no other's.  (Drawn once for every thread: the state is read
   * beside the fingerprint's look, commands-rebuild.c.) */
  static guint64 run_key[2];
  static gsize have_key;
  guint64 h;

  if (g_once_init_enter (&have_key))
    {
      for (guint i = 0; i < 2; i++)
        run_key[i] = (guint64) g_random_int () << 32 | g_random_int ();
      g_once_init_leave (&have_key, 1);
    }
  h = siphash (run_key, key, strlen (key), 1, 3);
  return (guint) (h ^ (h >> 32));
}
