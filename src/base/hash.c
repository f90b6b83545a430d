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

/* kic_str_hash()'s keys: the multipliers of its strings' first
 * 4 * STR_KEY_WORDS bytes, and SipHash's for a longer string */
#define STR_KEY_WORDS 256

typedef struct {
  guint64 words[STR_KEY_WORDS + 1];
  guint64 sip[2];
} StrKeys;

static const StrKeys *
str_keys (void)
{
  /* this process's keys, drawn once (GLib seeds its generator from
   * /dev/urandom): names chosen to collide under one run's keys collide
   * under no other's.  (Drawn once for every thread: the state is read
   * beside the fingerprint's look, commands-rebuild.c.) */
  static StrKeys keys;
  static gsize have_keys;

  if (g_once_init_enter (&have_keys))
    {
      for (guint i = 0; i < G_N_ELEMENTS (keys.words); i++)
        keys.words[i] = (guint64) g_random_int () << 32 | g_random_int ();
      for (guint i = 0; i < 2; i++)
        keys.sip[i] = (guint64) g_random_int () << 32 | g_random_int ();
      g_once_init_leave (&have_keys, 1);
    }
  return &keys;
}

guint
kic_str_hash (gconstpointer key)
{
  const StrKeys *keys = str_keys ();
  const guchar *p = key;
  gsize length = strlen (key);
  const guint64 *a = keys->words;
  guint64 h = *a++;
  gsize i = 0;

  if (length > 4 * STR_KEY_WORDS)
    {
      guint64 sip = siphash (keys->sip, key, length, 1, 3);

      return (guint) (sip ^ (sip >> 32));
    }
  /* the string as 32-bit words x_1..x_n (the last padded with zero
   * bytes: never 0, a string holds no NUL), h = a_0 + a_1 x_1 + ... +
   * a_n x_n mod 2^64, and its upper 32 bits: strongly universal (Thorup,
   * "High Speed Hashing for Integers and Strings", 2015, section 3.3), so
   * two different strings collide with probability 2^-32 over the keys,
   * whatever they are (a shorter string is a longer one with zero words
   * added, which add nothing).  The products are independent of each
   * other, where SipHash's rounds are a chain. */
  for (; i + 8 <= length; i += 8, a += 2)
    {
      guint64 w;

      memcpy (&w, p + i, 8);
      h += a[0] * (w & 0xffffffffu) + a[1] * (w >> 32);
    }
  if (i + 4 <= length)
    {
      guint32 w;

      memcpy (&w, p + i, 4);
      h += *a++ * w;
      i += 4;
    }
  if (i < length)
    {
      guint32 w = p[i];

      if (i + 1 < length)
        w |= (guint32) p[i + 1] << 8;
      if (i + 2 < length)
        w |= (guint32) p[i + 2] << 16;
      h += *a * w;
    }
  return (guint) (h >> 32);
}
