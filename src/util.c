/* util.c - messages, the error domain and the general helpers of util.h */
#include "kic.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

gboolean kic_quiet = FALSE;
gboolean kic_verbose = FALSE;

G_DEFINE_QUARK (kic-error-quark, kic_error)

static void
print_prefixed (const char *level, const char *format, va_list args)
{
  g_autofree char *msg = g_strdup_vprintf (format, args);
  g_printerr ("%s: %s%s\n", g_get_prgname () ? g_get_prgname () : "kde-icon-cache", level, msg);
}

/* The run's diagnostics, in the order first given, each text once: the
 * same bad file is met by every resolver that reads it (one per theme the
 * proof takes), and the admin should hear of it once. */
static GPtrArray *diagnostics;
static GHashTable *diagnostics_seen;
static GHashTable *diagnostics_loud;
static guint diagnostics_serial;

/* (the message as recorded: "LEVEL: text") */
static const char *
record (const char *level, const char *format, va_list args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);
  char *msg = g_strconcat (level, text, NULL);

  diagnostics_serial++;
  if (diagnostics_seen == NULL)
    diagnostics_seen = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  if (diagnostics == NULL)
    diagnostics = g_ptr_array_new_with_free_func (g_free);
  if (!g_hash_table_add (diagnostics_seen, msg))
    return g_hash_table_lookup (diagnostics_seen, msg); /* seen before (the set keeps MSG in place of its equal) */
  g_ptr_array_add (diagnostics, g_strdup (msg));
  return msg;
}

void
kic_warning (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  record ("warning: ", format, args);
  va_end (args);
}

void
kic_warning_loud (const char *format, ...)
{
  va_list args;
  const char *msg;

  va_start (args, format);
  msg = record ("warning: ", format, args);
  va_end (args);
  if (diagnostics_loud == NULL)
    diagnostics_loud = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_add (diagnostics_loud, g_strdup (msg));
}

gboolean
kic_diagnostic_is_loud (const char *msg)
{
  return diagnostics_loud != NULL && g_hash_table_contains (diagnostics_loud, msg);
}

void
kic_note (const char *format, ...)
{
  va_list args;

  va_start (args, format);
  record ("note: ", format, args);
  va_end (args);
}

guint
kic_diagnostics_serial (void)
{
  return diagnostics_serial;
}

GPtrArray *
kic_diagnostics_take (void)
{
  GPtrArray *taken = diagnostics != NULL ? diagnostics : g_ptr_array_new_with_free_func (g_free);

  /* what was taken stays in the seen set: a later repeat is still dropped */
  diagnostics = NULL;
  return taken;
}

void
kic_debug (const char *format, ...)
{
  va_list args;

  if (!kic_verbose)
    return;
  va_start (args, format);
  print_prefixed ("", format, args);
  va_end (args);
}

gboolean
kic_path_is_clean (const char *path)
{
  const char *p = path;

  if (p == NULL || p[0] != '/')
    return FALSE;
  if (p[1] == '\0')
    return TRUE;
  while (*p == '/')
    {
      const char *start = ++p;

      while (*p != '\0' && *p != '/')
        p++;
      /* an empty component ("//", a '/' at the end), "." or ".." */
      if (p == start || (p - start == 1 && start[0] == '.')
          || (p - start == 2 && start[0] == '.' && start[1] == '.'))
        return FALSE;
    }
  return TRUE;
}

char *
kic_path_clean (const char *path)
{
  g_autofree char *joined = NULL;
  const char *p = path;
  char *out;
  gsize len = 0;

  if (!g_path_is_absolute (path))
    {
      g_autofree char *cwd = g_get_current_dir ();

      p = joined = g_strconcat (cwd, "/", path, NULL);
    }
  /* one pass, in one buffer: every component the result keeps came with
   * at least one '/' before it, so it is no longer than P (the planner
   * cleans a path per link and per record read: no split, no array) */
  out = g_malloc (strlen (p) + 2);
  while (*p != '\0')
    {
      const char *start;
      gsize n;

      while (*p == '/')
        p++;
      start = p;
      while (*p != '\0' && *p != '/')
        p++;
      n = (gsize) (p - start);
      if (n == 0 || (n == 1 && start[0] == '.'))
        continue;
      if (n == 2 && start[0] == '.' && start[1] == '.')
        {
          /* drop the last component kept, and its '/' ("/.." is "/") */
          while (len > 0 && out[len - 1] != '/')
            len--;
          if (len > 0)
            len--;
          continue;
        }
      out[len++] = '/';
      memcpy (out + len, start, n);
      len += n;
    }
  if (len == 0)
    out[len++] = '/';
  out[len] = '\0';
  return out;
}

char *
kic_relative_link (const char *link, const char *target)
{
  /* the directories of LINK are its components but the last (the link
   * itself); those it shares with TARGET, component by component, are
   * left out, each other one is a "../" */
  const char *last = strrchr (link, '/');
  const char *from = link, *to = target;
  GString *out = g_string_new (NULL);

  while (from <= last && to != NULL)
    {
      const char *from_end = strchr (from, '/');
      const char *to_end = strchr (to, '/');
      gsize n = (gsize) (from_end - from);

      if ((to_end != NULL ? (gsize) (to_end - to) : strlen (to)) != n || memcmp (from, to, n) != 0)
        break;
      from = from_end + 1;
      to = to_end != NULL ? to_end + 1 : NULL;
    }
  /* each directory left ends with a '/' up to the link's last one */
  for (const char *p = from; p <= last; p++)
    if (*p == '/')
      g_string_append (out, "../");
  if (to != NULL)
    g_string_append (out, to);
  return g_string_free (out, FALSE);
}

gboolean
kic_read_fd (int fd, const char *what, char **contents, gsize *length, GError **error)
{
  return kic_read_fd_max (fd, what, KIC_MAX_FILE, -1, contents, length, error);
}

/* One allocation of the file's size (given, or from fstat()) and one read,
 * plus one that sees the end: a copy of every 64 KiB through a growing
 * string was most of what reading the 750 KB state back cost.  A file
 * that grows while it is read, or one with no size (a pipe), is read on
 * into a buffer that doubles, up to MAX. */
gboolean
kic_read_fd_max (int fd, const char *what, gsize max, goffset size, char **contents, gsize *length,
                 GError **error)
{
  struct stat st;
  gsize cap;
  gsize len = 0;
  char *buf;
  ssize_t n;

  if (size < 0)
    size = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) ? st.st_size : -1;
  cap = size >= 0 && (guint64) size <= max ? (gsize) size + 2 : 8192;
  cap = MIN (cap, max + 2);
  buf = g_malloc (cap);
  for (;;)
    {
      /* (room for the NUL; past MAX + 1 bytes the read has failed below) */
      if (len + 1 == cap)
        {
          cap = cap > (max + 2) / 2 ? max + 2 : cap * 2;
          buf = g_realloc (buf, cap);
        }
      if ((n = read (fd, buf + len, cap - 1 - len)) <= 0)
        break;
      /* nothing we read is legitimately that big: a bounded read keeps a
       * hostile file from exhausting memory */
      if (len + n > max)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM, "'%s' is larger than %" G_GSIZE_FORMAT " MiB",
                       what, max >> 20);
          g_free (buf);
          return FALSE;
        }
      len += n;
    }
  if (n < 0)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "cannot read '%s': %s",
                   what, g_strerror (errsv));
      g_free (buf);
      return FALSE;
    }
  buf[len] = '\0';
  if (length != NULL)
    *length = len;
  *contents = buf;
  return TRUE;
}

gboolean
kic_read_uint (const guchar *data, gsize length, guint64 offset, guint size, gboolean big_endian,
               guint64 *value)
{
  guint64 v = 0;

  if (offset > length || size > length - offset || size > 8)
    return FALSE;
  for (guint i = 0; i < size; i++)
    v = (v << 8) | data[offset + (big_endian ? i : size - 1 - i)];
  *value = v;
  return TRUE;
}

gboolean
kic_parse_int (const char *text, gint64 min, gint64 max, gint64 *value)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  return g_ascii_string_to_signed (stripped, 10, min, max, value, NULL);
}

void
kic_error_unquote (GError *error)
{
  const char *text = NULL;

  if (error == NULL)
    return;
  if (error->domain == G_KEY_FILE_ERROR)
    switch ((GKeyFileError) error->code)
      {
      case G_KEY_FILE_ERROR_UNKNOWN_ENCODING:
        text = "not UTF-8";
        break;
      case G_KEY_FILE_ERROR_PARSE:
        text = "a line is not 'key=value', '[group]' or a comment";
        break;
      case G_KEY_FILE_ERROR_NOT_FOUND:
        text = "not found";
        break;
      case G_KEY_FILE_ERROR_KEY_NOT_FOUND:
        text = "a key is missing";
        break;
      case G_KEY_FILE_ERROR_GROUP_NOT_FOUND:
        text = "a group is missing";
        break;
      case G_KEY_FILE_ERROR_INVALID_VALUE:
      default:
        text = "a value is not valid";
        break;
      }
  else if (error->domain == G_MARKUP_ERROR)
    {
      int line = 0;

      /* "Error on line N char M: ..." says where, which quotes nothing */
      if (sscanf (error->message, "Error on line %d", &line) == 1 && line > 0)
        {
          g_free (error->message);
          error->message = g_strdup_printf ("not well-formed XML (line %d)", line);
          return;
        }
      text = "not well-formed XML";
    }
  if (text == NULL)
    return;
  g_free (error->message);
  error->message = g_strdup (text);
}

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
  /* the last 0 to 7 bytes, little-endian (a loop here cost a tenth of
   * kic_str_hash(), whose keys end anywhere) */
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

/* U in decimal, after SIGN ('-' or 0) */
static gsize
format_decimal (char buf[KIC_INT64_DIGITS], guint64 u, char sign)
{
  char digits[KIC_INT64_DIGITS];
  char *p = digits + sizeof digits;
  gsize n;

  do
    *--p = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  if (sign != 0)
    *--p = sign;
  n = (gsize) (digits + sizeof digits - p);
  memcpy (buf, p, n);
  buf[n] = '\0';
  return n;
}

gsize
kic_format_int64 (char buf[KIC_INT64_DIGITS], gint64 v)
{
  return format_decimal (buf, v < 0 ? -(guint64) v : (guint64) v, v < 0 ? '-' : 0);
}

gsize
kic_format_uint64 (char buf[KIC_INT64_DIGITS], guint64 v)
{
  return format_decimal (buf, v, 0);
}

int
kic_compare_strings (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
kic_sorted_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_sized_new (g_hash_table_size (table));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, kic_compare_strings);
  return keys;
}

gboolean
kic_path_is_under (const char *path, const char *dir)
{
  gsize n = strlen (dir);

  if (strcmp (dir, "/") == 0)
    return TRUE;
  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KIC_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KIC_ASAN 1
#endif

void
kic_keep_until_exit (gpointer data, GDestroyNotify free_func)
{
#ifdef KIC_ASAN
  if (data != NULL)
    free_func (data);
#else
  static GPtrArray *kept;

  (void) free_func;
  if (data == NULL)
    return;
  if (kept == NULL)
    kept = g_ptr_array_new ();
  g_ptr_array_add (kept, data);
#endif
}
