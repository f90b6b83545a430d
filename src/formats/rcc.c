/* rcc.c - read the :/icons/breeze resources out of a library image
 *
 * The layout Qt's rcc writes (format 2 and 3, read by QResourceRoot in
 * qtbase's qresource.cpp), checked byte by byte on Debian 13's
 * libKF6BreezeIcons.so.6 against Qt's own listing (tests/oracle/kf6/
 * FINDINGS.md), all big-endian:
 *   tree node:  name offset u32, flags u16 (1 zlib, 2 directory, 4 zstd),
 *               directory: child count u32, first child (node index) u32;
 *               file: territory u16, language u16, data offset u32;
 *               format 2 and later: last modified u64 (22 bytes, else 14)
 *   name:       length u16, qt_hash u32, UTF-16BE characters
 *   data:       size u32, then the bytes (zstd: one frame)
 * Every offset read from the image is checked by subtraction before use.
 */
#include "rcc.h"

#include "diag.h"
#include "hash.h"
#include "number.h"

#include <string.h>
#include <zstd.h>

enum {
  RCC_COMPRESSED_ZLIB = 1,
  RCC_DIRECTORY = 2,
  RCC_COMPRESSED_ZSTD = 4,
  RCC_MAX_DEPTH = 16,
  RCC_MAX_NODES = 1 << 20,
  RCC_MAX_INDEX = 1 << 20, /* an index.theme is a few KiB */
};

typedef struct {
  const guchar *data;
  gsize length;
  gsize tree;      /* offset of node 0 */
  gsize node_size; /* 14 or 22 */
  gsize names;     /* offset of the name table */
  guint visited;
} Rcc;

static gboolean
be (const Rcc *rcc, gsize offset, guint size, guint64 *value)
{
  return kic_read_uint (rcc->data, rcc->length, offset, size, TRUE, value);
}

guint32
kic_rcc_hash (const char *name)
{
  guint32 h = 0;

  for (const guchar *p = (const guchar *) name; *p != '\0'; p++)
    {
      h = (h << 4) + *p;
      h ^= (h & 0xf0000000) >> 23;
      h &= 0x0fffffff;
    }
  return h;
}

/* The name at OFFSET of the name table, if it is printable ASCII and its
 * hash matches.  transfer full */
static char *
rcc_name (const Rcc *rcc, guint64 offset)
{
  guint64 length, hash;
  gsize at;
  char *name;

  if (offset > rcc->length - rcc->names)
    return NULL;
  at = rcc->names + offset;
  if (!be (rcc, at, 2, &length) || !be (rcc, at + 2, 4, &hash) || length == 0 || length > 255
      || at + 6 > rcc->length || 2 * length > rcc->length - (at + 6))
    return NULL;
  name = g_malloc (length + 1);
  for (guint64 i = 0; i < length; i++)
    {
      const guchar *c = rcc->data + at + 6 + 2 * i;

      if (c[0] != 0 || c[1] < 0x20 || c[1] > 0x7e || c[1] == '/')
        {
          g_free (name);
          return NULL;
        }
      name[i] = (char) c[1];
    }
  name[length] = '\0';
  if (kic_rcc_hash (name) != hash)
    g_clear_pointer (&name, g_free);
  return name;
}

typedef struct {
  guint64 name, flags, count, first, data;
} RccNode;

static gboolean
rcc_node (const Rcc *rcc, guint64 index, RccNode *node)
{
  gsize at;

  if (index >= RCC_MAX_NODES || index > (rcc->length - rcc->tree) / rcc->node_size)
    return FALSE;
  at = rcc->tree + index * rcc->node_size;
  if (!be (rcc, at, 4, &node->name) || !be (rcc, at + 4, 2, &node->flags))
    return FALSE;
  if (node->flags & RCC_DIRECTORY)
    return be (rcc, at + 6, 4, &node->count) && be (rcc, at + 10, 4, &node->first);
  return be (rcc, at + 10, 4, &node->data);
}

/* Collect the files below node INDEX, whose path is PATH ("" for the
 * root); FALSE when the tree is damaged. */
static gboolean
rcc_walk (Rcc *rcc, guint64 index, const char *path, guint depth, GPtrArray *files, GHashTable *data)
{
  RccNode node;

  if (depth > RCC_MAX_DEPTH || ++rcc->visited > RCC_MAX_NODES || !rcc_node (rcc, index, &node))
    return FALSE;
  if (!(node.flags & RCC_DIRECTORY))
    {
      g_ptr_array_add (files, g_strdup (path));
      g_hash_table_insert (data, g_strdup (path), g_memdup2 (&node, sizeof node));
      return TRUE;
    }
  if (node.count > RCC_MAX_NODES || node.first > RCC_MAX_NODES || node.first <= index)
    return FALSE;
  for (guint64 c = node.first; c < node.first + node.count; c++)
    {
      RccNode child;
      g_autofree char *name = NULL;
      g_autofree char *child_path = NULL;

      if (!rcc_node (rcc, c, &child) || (name = rcc_name (rcc, child.name)) == NULL)
        return FALSE;
      child_path = g_strconcat (path, "/", name, NULL);
      if (!rcc_walk (rcc, c, child_path, depth + 1, files, data))
        return FALSE;
    }
  return TRUE;
}

/* The text of the data entry of NODE, knowing only where its bytes lie
 * relative to each other: search the image for the entry that holds an
 * index.theme ("[Icon Theme]" first) and sits at NODE's data offset from
 * a plausible table start.  zlib entries are not read.  transfer full */
static char *
rcc_index_theme (const Rcc *rcc, const RccNode *node, gsize *length)
{
  static const guchar zstd_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };
  static const char header[] = "[Icon Theme]";
  const guchar *p = rcc->data;
  gsize left = rcc->length;

  if (node->flags & RCC_COMPRESSED_ZLIB)
    return NULL;
  while (left > 4)
    {
      const guchar *hit = (node->flags & RCC_COMPRESSED_ZSTD) ? memmem (p, left, zstd_magic, 4)
                                                              : memmem (p, left, header, strlen (header));
      gsize at;
      guint64 size;

      if (hit == NULL)
        return NULL;
      at = (gsize) (hit - rcc->data);
      p = hit + 1;
      left = rcc->length - (at + 1);
      if (at < 4 || at - 4 < node->data || !be (rcc, at - 4, 4, &size) || size == 0 || size > rcc->length - at)
        continue;
      if (node->flags & RCC_COMPRESSED_ZSTD)
        {
          unsigned long long n = ZSTD_getFrameContentSize (hit, size);
          g_autofree char *text = NULL;
          size_t got;

          if (n == ZSTD_CONTENTSIZE_UNKNOWN || n == ZSTD_CONTENTSIZE_ERROR || n > RCC_MAX_INDEX)
            continue;
          text = g_malloc (n + 1);
          got = ZSTD_decompress (text, n, hit, size);
          if (ZSTD_isError (got) || got != n || n < strlen (header) || memcmp (text, header, strlen (header)) != 0)
            continue;
          text[n] = '\0';
          *length = n;
          return g_steal_pointer (&text);
        }
      if (size > RCC_MAX_INDEX)
        continue;
      *length = size;
      return g_strndup ((const char *) hit, size);
    }
  return NULL;
}

void
kic_rcc_breeze_free (KicRccBreeze *breeze)
{
  if (breeze == NULL)
    return;
  g_ptr_array_unref (breeze->files);
  g_free (breeze->index_theme);
  g_free (breeze);
}

/* Try the tree whose root is at ROOT with nodes of NODE_SIZE bytes, its
 * first child being the "icons" name at ICONS.  transfer full */
static KicRccBreeze *
try_tree (const guchar *data, gsize length, gsize root, gsize node_size, gsize icons)
{
  Rcc rcc = { data, length, root, node_size, 0, 0 };
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) nodes = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
  KicRccBreeze *breeze;
  guint64 first_name;
  const RccNode *index_node;

  if (!be (&rcc, root + node_size, 4, &first_name) || first_name > icons)
    return NULL;
  rcc.names = icons - first_name;
  if (!rcc_walk (&rcc, 0, "", 0, files, nodes))
    return NULL;
  breeze = g_new0 (KicRccBreeze, 1);
  breeze->files = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);

      if (g_str_has_prefix (path, "/icons/breeze/"))
        g_ptr_array_add (breeze->files, g_strconcat (":", path, NULL));
    }
  index_node = g_hash_table_lookup (nodes, "/icons/breeze/index.theme");
  if (index_node != NULL)
    breeze->index_theme = rcc_index_theme (&rcc, index_node, &breeze->index_theme_length);
  if (breeze->files->len == 0)
    g_clear_pointer (&breeze, kic_rcc_breeze_free);
  return breeze;
}

KicRccBreeze *
kic_rcc_read_breeze (const guchar *data, gsize length, GError **error)
{
  static const guchar icons_utf16[] = { 0, 'i', 0, 'c', 0, 'o', 0, 'n', 0, 's' };
  static const guchar root_start[] = { 0, 0, 0, 0, 0, RCC_DIRECTORY };
  const guchar *p = data;
  gsize left = length;

  /* every "icons" entry of a name table: length 5, its hash, the name */
  while (left > sizeof icons_utf16)
    {
      const guchar *hit = memmem (p, left, icons_utf16, sizeof icons_utf16);
      gsize icons;
      const guchar *q = data;
      gsize q_left = length;

      if (hit == NULL)
        break;
      p = hit + 1;
      left = length - (gsize) (p - data);
      if (hit - data < 6)
        continue;
      icons = (gsize) (hit - data) - 6;
      if (data[icons] != 0 || data[icons + 1] != 5
          || ((guint32) data[icons + 2] << 24 | (guint32) data[icons + 3] << 16 | (guint32) data[icons + 4] << 8
              | data[icons + 5]) != kic_rcc_hash ("icons"))
        continue;
      /* every root node: name 0, a directory whose first child is node 1 */
      while (q_left > sizeof root_start + 8)
        {
          const guchar *r = memmem (q, q_left, root_start, sizeof root_start);
          gsize root;

          if (r == NULL)
            break;
          q = r + 1;
          q_left = length - (gsize) (q - data);
          root = (gsize) (r - data);
          if (root + 14 > length || memcmp (data + root + 10, "\0\0\0\1", 4) != 0)
            continue;
          for (gsize node_size = 22; node_size >= 14; node_size -= 8)
            {
              KicRccBreeze *breeze = try_tree (data, length, root, node_size, icons);

              if (breeze != NULL)
                return breeze;
            }
        }
    }
  g_set_error_literal (error, KIC_ERROR, KIC_ERROR_IO, "no :/icons/breeze resources found");
  return NULL;
}
