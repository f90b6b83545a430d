/* writer-links.c - one entry of the manifest made true on disk or undone:
 * a link planted, replaced (exchanged in, what came out checked) or
 * removed, and a store copy removed, each only while it is still ours
 * (the manifest lists it and it still points where we put it)
 */
#include "writer-private.h"

#include "diag.h"
#include "fingerprint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Is ERRSV, of a change in the link directory DIR, that directory's own:
 * one the run may not write (a read-only mount of it, as the service's
 * sandbox makes where its ReadWritePaths= do not reach, or where an
 * LSM refuses)?  Then one warning names the directory, no link there is
 * planted, replaced or removed, and the run goes on (the store's writes
 * are not here: a read-only store still stops the run). */
static gboolean
dir_unwritable (Writer *w, const DirHandle *dir, int errsv)
{
  g_autofree char *host = NULL;

  if (errsv != EROFS && errsv != EACCES)
    return FALSE;
  host = writer_host_path (w, dir->path);
  /* (one warning: the same text is recorded once; said with --quiet
   * too, as the periodic jobs run: a sandbox that forbids a directory
   * the tool plants in is the admin's to fix, with a drop-in) */
  kic_warning_loud ("cannot write in '%s': %s: no link there is planted, replaced or removed", host,
                    g_strerror (errsv));
  g_hash_table_add (w->untrusted, g_strdup (dir->path));
  return TRUE;
}

/* Is HAVE, at the path of the old entry WAS, a link of ours? */
static gboolean
was_ours (const Writer *w, const KicManifestEntry *was, const char *have)
{
  g_autofree char *copy = NULL;

  if (was == NULL || was->kind != KIC_ENTRY_LINK || have == NULL || strcmp (have, was->target) != 0)
    return FALSE;
  copy = writer_store_copy_of_link (w, was->path, have);
  return copy != NULL;
}

/* Replace our link NAME (target OLD_TARGET) by one to TARGET: the new link
 * is made under this run's temporary name and exchanged with whatever is
 * at NAME now, which must then be our old link; if a package put
 * something there meanwhile, it is exchanged back.  FALSE with *REFUSED
 * (and a warning) when something not ours was there or the name cannot
 * be planted; FALSE with ERROR when the run must stop. */
static gboolean
replace_link (Writer *w, DirHandle *dir, const char *name, const char *target, const char *old_target,
              const char *what, gboolean *refused, GError **error)
{
  g_autofree char *tmp = writer_temp_name (w, name);
  g_autofree char *host = writer_host_path (w, what);
  g_autofree char *got = NULL;

  /* (a unique name: nothing of anyone else's is there, and none removed) */
  if (symlinkat (target, dir->fd, tmp) < 0)
    {
      int errsv = errno;

      if (dir_unwritable (w, dir, errsv))
        {
          *refused = TRUE;
          return FALSE;
        }
      if (writer_errno_is_global (errsv))
        return writer_set_errno_error (error, errsv, "create link", host);
      kic_warning ("cannot create a link beside '%s': %s: left as it is", host, g_strerror (errsv));
      *refused = TRUE;
      return FALSE;
    }
  writer_dir_left (dir, tmp, WRITER_LEFT_GONE);
  if (renameat2 (dir->fd, tmp, dir->fd, name, RENAME_EXCHANGE) < 0)
    {
      int errsv = errno;

      /* gone meanwhile: a new link, which replaces nothing (but someone
       * else removed our old one) */
      if (errsv == ENOENT && renameat2 (dir->fd, tmp, dir->fd, name, RENAME_NOREPLACE) == 0)
        {
          writer_dir_foreign (dir);
          writer_dir_left (dir, name, target);
          return TRUE;
        }
      /* a file system without exchange (NFS before 4.2): a plain rename,
       * with the window between the check and it (SECURITY.md) */
      if ((errsv == EINVAL || errsv == ENOSYS) && renameat (dir->fd, tmp, dir->fd, name) == 0)
        {
          writer_dir_left (dir, name, target);
          return TRUE;
        }
      errsv = errno;
      writer_dir_foreign (dir);
      unlinkat (dir->fd, tmp, 0); /* our own new link */
      if (writer_errno_is_global (errsv))
        return writer_set_errno_error (error, errsv, "rename link into place", host);
      if (errsv != EEXIST)
        kic_warning ("cannot replace '%s': %s: left as it is", host, g_strerror (errsv));
      *refused = TRUE;
      return FALSE;
    }
  got = writer_read_link (dir->fd, tmp);
  writer_dir_left (dir, name, target);
  if (got != NULL && strcmp (got, old_target) == 0)
    {
      if (unlinkat (dir->fd, tmp, 0) < 0 && errno != ENOENT)
        {
          g_autofree char *tmp_host = writer_host_path (w, tmp);

          return writer_set_errno_error (error, errno, "remove the old link, now", tmp_host);
        }
      return TRUE;
    }
  /* not our old link: give it its name back */
  writer_dir_foreign (dir);
  if (renameat2 (dir->fd, tmp, dir->fd, name, RENAME_EXCHANGE) < 0)
    {
      g_autofree char *dir_host = writer_host_path (w, dir->path);

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   "'%s' appeared while kde-icon-cache ran and cannot be given its name back: it is '%s/%s' "
                   "now, and our link is at its name: %s",
                   host, dir_host, tmp, g_strerror (errno));
      return FALSE;
    }
  g_free (got);
  got = writer_read_link (dir->fd, tmp);
  if (got != NULL && strcmp (got, target) == 0)
    unlinkat (dir->fd, tmp, 0);
  else
    kic_warning ("'%s' changed twice while kde-icon-cache ran: '%s' is left beside it", host, tmp);
  *refused = TRUE;
  return FALSE;
}

static void
refuse_link (Writer *w, const KicManifestEntry *entry, KicManifest *refused, const char *why)
{
  if (why != NULL)
    kic_warning ("'%s%s' %s: left alone", w->prefix, entry->path, why);
  kic_manifest_add (refused, KIC_ENTRY_LINK, entry->path, entry->target, NULL);
  w->stats->refused++;
}

/* Step 3: a link, unless something not ours is in the way, its copy could
 * not be written, or its directory is no longer one root may plant in
 * (checked again now, on the descriptor the link is made in): then that
 * link is left out with a warning and the run goes on.  FALSE only when
 * the run must stop (a full or read-only file system). */
gboolean
writer_put_link (Writer *w, const KicManifestEntry *entry, KicManifest *refused, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  g_autofree char *have = NULL;
  g_autofree char *copy = writer_store_copy_of_link (w, entry->path, entry->target);
  g_autoptr (GError) local = NULL;
  const KicManifestEntry *was = g_hash_table_lookup (w->old->entries, entry->path);
  DirHandle *handle;
  gboolean lost = FALSE;

  if (copy != NULL && g_hash_table_contains (w->lost, copy))
    {
      refuse_link (w, entry, refused, NULL); /* its copy's warning said why */
      return TRUE;
    }
  /* in place since the manifest was committed, in a directory root may
   * still plant in (desired_manifest() checked it, now) */
  if (copy != NULL && writer_link_settled (w, was, entry->target))
    {
      w->stats->unchanged++;
      return TRUE;
    }
  handle = writer_open_dir (w, dir, OPEN_TRUSTED, &local);
  if (handle == NULL)
    {
      g_autofree char *why = g_strdup_printf ("is not planted: %s", local->message);

      refuse_link (w, entry, refused, why);
      return TRUE;
    }
  have = writer_read_link (handle->fd, name);
  if (have != NULL && strcmp (have, entry->target) == 0)
    {
      w->stats->unchanged++;
      return TRUE;
    }
  if (have != NULL && !was_ours (w, was, have))
    {
      refuse_link (w, entry, refused, "exists and is not a link of ours");
      return TRUE;
    }
  if (w->options.dry_run)
    {
      writer_say (w, have ? "replace" : "link", entry->path, entry->target);
      if (have)
        w->stats->replaced++;
      else
        w->stats->added++;
      return TRUE;
    }
  writer_before_link (w, entry->path);
  if (have == NULL)
    {
      /* symlinkat never replaces: a file a package put there since the
       * check stays */
      if (symlinkat (entry->target, handle->fd, name) == 0)
        {
          writer_dir_left (handle, name, entry->target);
          w->stats->added++;
          writer_say (w, "link", entry->path, entry->target);
          return TRUE;
        }
      int errsv = errno;

      if (dir_unwritable (w, handle, errsv))
        {
          refuse_link (w, entry, refused, NULL);
          return TRUE;
        }
      if (writer_errno_is_global (errsv))
        {
          g_autofree char *host = writer_host_path (w, entry->path);

          return writer_set_errno_error (error, errsv, "create link", host);
        }
      if (errsv != EEXIST)
        {
          g_autofree char *why = g_strdup_printf ("cannot be planted: %s", g_strerror (errsv));

          refuse_link (w, entry, refused, why);
          return TRUE;
        }
      writer_dir_foreign (handle); /* a name came since the plan's reading */
      lost = TRUE;
    }
  else if (replace_link (w, handle, name, entry->target, have, entry->path, &lost, error))
    {
      w->stats->replaced++;
      writer_say (w, "replace", entry->path, entry->target);
      return TRUE;
    }
  if (!lost)
    return FALSE;
  /* (a directory that cannot be written was named once already) */
  refuse_link (w, entry, refused,
               g_hash_table_contains (w->untrusted, dir) ? NULL : "appeared while kde-icon-cache ran");
  return TRUE;
}

/* Remove our link NAME (target TARGET): moved aside to this run's
 * temporary name, checked there, then removed; whatever else was moved
 * goes back. */
static gboolean
remove_link (Writer *w, DirHandle *dir, const char *name, const char *target, const char *what,
             GError **error)
{
  g_autofree char *tmp = writer_temp_name (w, name);
  g_autofree char *host = writer_host_path (w, what);
  g_autofree char *got = NULL;
  struct stat st;

  writer_before_link (w, what);
  if (renameat2 (dir->fd, name, dir->fd, tmp, RENAME_NOREPLACE) < 0)
    {
      if (errno == ENOENT)
        {
          writer_dir_foreign (dir); /* read a moment ago: someone removed it */
          return TRUE;
        }
      /* it stays ours, and listed (writer.c, keep_stuck()) */
      if (errno == EROFS || errno == EACCES)
        {
          int errsv = errno;

          dir_unwritable (w, dir, errsv);
          g_hash_table_insert (w->stuck, g_strdup (what), g_strdup_printf ("'%s': %s", host, g_strerror (errsv)));
          return TRUE;
        }
      if (writer_errno_is_global (errno))
        return writer_set_errno_error (error, errno, "remove", host);
      if (errno != EINVAL && errno != ENOSYS)
        {
          kic_warning ("cannot remove '%s': %s: left as it is", host, g_strerror (errno));
          return TRUE;
        }
      /* no RENAME_NOREPLACE (NFS before 4.2): the temporary name is new
       * for this run, and the lock keeps other runs away */
      if (fstatat (dir->fd, tmp, &st, AT_SYMLINK_NOFOLLOW) == 0)
        {
          kic_warning ("cannot remove '%s': '%s' is in the way: left as it is", host, tmp);
          return TRUE;
        }
      if (renameat (dir->fd, name, dir->fd, tmp) < 0)
        {
          if (errno != ENOENT)
            return writer_set_errno_error (error, errno, "remove", host);
          writer_dir_foreign (dir);
          return TRUE;
        }
    }
  writer_dir_left (dir, tmp, WRITER_LEFT_GONE);
  writer_dir_left (dir, name, WRITER_LEFT_GONE);
  got = writer_read_link (dir->fd, tmp);
  if (got == NULL || strcmp (got, target) != 0)
    {
      writer_dir_foreign (dir);
      if (renameat2 (dir->fd, tmp, dir->fd, name, RENAME_NOREPLACE) < 0)
        kic_warning ("'%s' appeared while kde-icon-cache ran; it is now '%s': %s", host, tmp,
                     g_strerror (errno));
      else
        kic_warning ("'%s' appeared while kde-icon-cache ran: left alone", host);
      return TRUE;
    }
  if (unlinkat (dir->fd, tmp, 0) < 0 && errno != ENOENT)
    return writer_set_errno_error (error, errno, "remove", host);
  w->stats->removed++;
  writer_say (w, "remove", what, NULL);
  return TRUE;
}

/* Step 4: an entry of the old manifest that is no longer wanted: a link
 * that still points where we put it, into the store; a store copy that
 * still has the content we gave it.  Nothing else, whatever the manifest
 * says. */
gboolean
writer_remove_entry (Writer *w, const KicManifestEntry *entry, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (entry->path);
  g_autofree char *name = g_path_get_basename (entry->path);
  DirHandle *handle;

  if (entry->kind == KIC_ENTRY_LINK)
    {
      g_autofree char *copy = writer_store_copy_of_link (w, entry->path, entry->target);
      g_autofree char *have = NULL;

      if (copy == NULL)
        {
          kic_warning ("'%s%s' does not point into the store: not a link of ours, left alone", w->prefix,
                       entry->path);
          return TRUE;
        }
      handle = writer_open_dir (w, dir, 0, NULL);
      if (handle == NULL || (have = writer_read_link (handle->fd, name)) == NULL)
        return TRUE; /* already gone */
      if (strcmp (have, entry->target) != 0)
        {
          kic_warning ("'%s%s' is no longer a link of ours: left alone", w->prefix, entry->path);
          return TRUE;
        }
      if (w->options.dry_run)
        {
          writer_say (w, "remove", entry->path, NULL);
          w->stats->removed++;
          return TRUE;
        }
      return remove_link (w, handle, name, entry->target, entry->path, error);
    }
  else
    {
      g_autofree char *have = NULL;
      struct stat st;

      if (!writer_in_store (w, entry->path))
        {
          kic_warning ("'%s%s' is not in the store: not a copy of ours, left alone", w->prefix, entry->path);
          return TRUE;
        }
      handle = writer_open_dir (w, dir, 0, NULL);
      if (handle == NULL || fstatat (handle->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        return TRUE; /* already gone */
      have = writer_sha256_at (handle->fd, name);
      if (have == NULL || entry->sha256 == NULL || strcmp (have, entry->sha256) != 0)
        {
          kic_warning ("'%s%s' is no longer the copy we made: left alone", w->prefix, entry->path);
          return TRUE;
        }
      w->stats->files_removed++;
    }
  if (w->options.dry_run)
    {
      writer_say (w, "remove", entry->path, NULL);
      return TRUE;
    }
  if (unlinkat (handle->fd, name, 0) < 0 && errno != ENOENT)
    {
      g_autofree char *host = writer_host_path (w, entry->path);

      if (writer_errno_is_global (errno))
        return writer_set_errno_error (error, errno, "remove", host);
      kic_warning ("cannot remove '%s': %s: left as it is", host, g_strerror (errno));
      return TRUE;
    }
  writer_dir_left (handle, name, WRITER_LEFT_GONE);
  writer_say (w, "remove", entry->path, NULL);
  return TRUE;
}
