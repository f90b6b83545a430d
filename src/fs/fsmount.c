/* fsmount.c - how a directory is mounted (fsmount.h) */
#include "fsmount.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int (*kic_mount_fstatfs) (int fd, struct statfs *buf) = fstatfs;
const char *kic_mount_mountinfo_path = "/proc/self/mountinfo";

/* f_type values of <linux/magic.h> (and of file systems outside it) */
static const struct {
  unsigned long magic;
  KicMountKind kind;
  const char *fs;
} types[] = {
  { 0x6969, KIC_MOUNT_NFS, "nfs" },
  { 0xFF534D42, KIC_MOUNT_NETWORK, "cifs" },
  { 0xFE534D42, KIC_MOUNT_NETWORK, "smb3" },
  { 0x517B, KIC_MOUNT_NETWORK, "smbfs" },
  { 0x00C36400, KIC_MOUNT_NETWORK, "ceph" },
  { 0x01021997, KIC_MOUNT_NETWORK, "9p" },
  { 0x5346414F, KIC_MOUNT_NETWORK, "afs" },
  { 0x65735546, KIC_MOUNT_FUSE, "fuse" },
  { 0x73717368, KIC_MOUNT_IMAGE, "squashfs" },
  { 0xE0F5E1E2, KIC_MOUNT_IMAGE, "erofs" },
  { 0x794C7630, KIC_MOUNT_OVERLAY, "overlay" },
  { 0xEF53, KIC_MOUNT_LOCAL, "ext4" },
  { 0x9123683E, KIC_MOUNT_LOCAL, "btrfs" },
  { 0x58465342, KIC_MOUNT_LOCAL, "xfs" },
  { 0x01021994, KIC_MOUNT_LOCAL, "tmpfs" },
  { 0xF2F52010, KIC_MOUNT_LOCAL, "f2fs" },
  { 0x2FC12FC1, KIC_MOUNT_LOCAL, "zfs" },
};

KicMountKind
kic_mount_kind_of_magic (unsigned long magic, const char **fs)
{
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    if (types[i].magic == (magic & 0xFFFFFFFFUL))
      {
        *fs = types[i].fs;
        return types[i].kind;
      }
  /* any other type: one this machine keeps on its own disks or in memory */
  *fs = "local";
  return KIC_MOUNT_LOCAL;
}

/* mountinfo's octal escapes (\040 a space, \134 a backslash) undone */
static char *
unescape_octal (const char *s, gsize n)
{
  GString *out = g_string_sized_new (n);

  for (gsize i = 0; i < n; i++)
    if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && g_ascii_isdigit (s[i + 2])
        && g_ascii_isdigit (s[i + 3]))
      {
        g_string_append_c (out, (char) (((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0')));
        i += 3;
      }
    else
      g_string_append_c (out, s[i]);
  return g_string_free (out, FALSE);
}

/* the layers of one lowerdir= value: separated by ':', "\:" a colon in a
 * path (overlayfs.rst), each escape undone */
static void
split_lowers (const char *raw, gsize n, GPtrArray *out)
{
  g_autofree char *value = unescape_octal (raw, n);
  GString *layer = g_string_new (NULL);

  for (const char *p = value;; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        g_string_append_c (layer, *++p);
      else if (*p == ':' || *p == '\0')
        {
          if (layer->len > 0)
            g_ptr_array_add (out, g_strdup (layer->str));
          g_string_truncate (layer, 0);
          if (*p == '\0')
            break;
        }
      else
        g_string_append_c (layer, *p);
    }
  g_string_free (layer, TRUE);
}

/* the fields after " - " of mount MNT_ID's line: FSTYPE SOURCE SUPER_OPTIONS */
static char **
mount_tail (const char *mountinfo, guint64 mnt_id)
{
  g_auto (GStrv) lines = g_strsplit (mountinfo, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *dash = strstr (lines[i], " - ");
      char **tail;
      char *end;

      if (dash == NULL || g_ascii_strtoull (lines[i], &end, 10) != mnt_id || end == lines[i] || *end != ' ')
        continue;
      tail = g_strsplit (dash + 3, " ", 3);
      if (g_strv_length (tail) == 3)
        return tail;
      g_strfreev (tail);
      return NULL;
    }
  return NULL;
}

char *
kic_mount_source (const char *mountinfo, guint64 mnt_id)
{
  g_auto (GStrv) tail = mount_tail (mountinfo, mnt_id);

  return tail != NULL ? unescape_octal (tail[1], strlen (tail[1])) : NULL;
}

char **
kic_mount_overlay_lowers (const char *mountinfo, guint64 mnt_id)
{
  g_auto (GStrv) tail = mount_tail (mountinfo, mnt_id);
  GPtrArray *out;

  if (tail == NULL || strcmp (tail[0], "overlay") != 0)
    return NULL;
  out = g_ptr_array_new ();
  for (const char *o = tail[2]; *o != '\0';)
    {
      gsize n = strcspn (o, ",");

      if (g_str_has_prefix (o, "lowerdir=") && n > 9)
        split_lowers (o + 9, n - 9, out);
      else if (g_str_has_prefix (o, "lowerdir+=") && n > 10)
        g_ptr_array_add (out, unescape_octal (o + 10, n - 10));
      o += n + (o[n] == ',');
    }
  if (out->len == 0)
    {
      g_ptr_array_free (out, TRUE);
      return NULL;
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static KicMountKind
kind_of_fd (int fd, const char **fs)
{
  struct statfs st;

  *fs = "unknown";
  if (kic_mount_fstatfs (fd, &st) < 0)
    return KIC_MOUNT_UNKNOWN;
  return kic_mount_kind_of_magic ((unsigned long) st.f_type, fs);
}

/* mount FD's id (statx), and the text of mountinfo; FALSE when unknown */
static gboolean
mount_id (int fd, guint64 *id, char **info)
{
  struct statx sx;

  if (statx (fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) < 0 || !(sx.stx_mask & STATX_MNT_ID))
    return FALSE;
  *id = sx.stx_mnt_id;
  return g_file_get_contents (kic_mount_mountinfo_path, info, NULL, NULL);
}

/* whether the image FD is in is read from a network block device */
static gboolean
on_nbd (int fd)
{
  g_autofree char *info = NULL;
  g_autofree char *source = NULL;
  guint64 id;

  return mount_id (fd, &id, &info) && (source = kic_mount_source (info, id)) != NULL
         && g_str_has_prefix (source, "/dev/nbd");
}

/* An overlay's layers, lowest last: the first from the bottom that is not
 * local names it (an LTSP client's root: a tmpfs over a squashfs image) */
static void
overlay_lower (int fd, KicMount *m)
{
  g_autofree char *info = NULL;
  g_auto (GStrv) lowers = NULL;
  guint64 id;

  if (!mount_id (fd, &id, &info) || (lowers = kic_mount_overlay_lowers (info, id)) == NULL)
    return;
  for (guint i = g_strv_length (lowers); i-- > 0;)
    {
      int lfd = open (lowers[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
      const char *fs;
      KicMountKind kind;

      if (lfd < 0)
        continue;
      kind = kind_of_fd (lfd, &fs);
      if (m->lower_kind == KIC_MOUNT_UNKNOWN || (m->lower_kind == KIC_MOUNT_LOCAL && kind != KIC_MOUNT_LOCAL))
        {
          m->lower_kind = kind;
          m->lower_fs = fs;
          m->nbd = kind == KIC_MOUNT_IMAGE && on_nbd (lfd);
        }
      close (lfd);
    }
}

KicMount
kic_mount_of_fd (int fd)
{
  KicMount m = { KIC_MOUNT_UNKNOWN, "unknown", KIC_MOUNT_UNKNOWN, NULL, FALSE };

  m.kind = kind_of_fd (fd, &m.fs);
  if (m.kind == KIC_MOUNT_OVERLAY)
    overlay_lower (fd, &m);
  else if (m.kind == KIC_MOUNT_IMAGE)
    m.nbd = on_nbd (fd);
  return m;
}
