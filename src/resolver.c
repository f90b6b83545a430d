/* resolver.c - the KF5 5.103 icon lookup over a KicFsIndex
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless
 * kicontheme.cpp is named.  The loop order is theme -> name variant ->
 * extension -> directory.
 */
#include "resolver.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct _KicResolver {
  KicFsIndex *index; /* borrowed */
  GPtrArray *themes; /* KicTheme*, search order; may hold one theme twice */
  char **data_dirs;
  gboolean data_home_hidden;
  char **user_search_paths;
  GHashTable *generic_icons;
  int group_size[KIC_GROUP_LAST];
  const KicOverlay *overlay; /* borrowed, may be NULL */
};

struct _KicOverlay {
  /* file name -> (dir -> GINT_TO_POINTER (add)): keyed by the short name
   * first, since almost every probe asks for a name the overlay lacks */
  GHashTable *names;
};

KicOverlay *
kic_overlay_new (void)
{
  KicOverlay *overlay = g_new0 (KicOverlay, 1);

  overlay->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) g_hash_table_unref);
  return overlay;
}

void
kic_overlay_free (KicOverlay *overlay)
{
  if (overlay == NULL)
    return;
  g_hash_table_unref (overlay->names);
  g_free (overlay);
}

void
kic_overlay_set (KicOverlay *overlay, const char *dir, const char *name, gboolean add)
{
  GHashTable *dirs = g_hash_table_lookup (overlay->names, name);

  if (dirs == NULL)
    {
      dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_insert (overlay->names, g_strdup (name), dirs);
    }
  g_hash_table_replace (dirs, g_strdup (dir), GINT_TO_POINTER (add));
}

void
kic_overlay_unset (KicOverlay *overlay, const char *dir, const char *name)
{
  GHashTable *dirs = g_hash_table_lookup (overlay->names, name);

  if (dirs != NULL)
    g_hash_table_remove (dirs, dir);
}

gboolean
kic_overlay_lookup (const KicOverlay *overlay, const char *dir, const char *name, gboolean *add)
{
  GHashTable *dirs = g_hash_table_lookup (overlay->names, name);
  gpointer value;

  if (dirs == NULL || !g_hash_table_lookup_extended (dirs, dir, NULL, &value))
    return FALSE;
  *add = GPOINTER_TO_INT (value);
  return TRUE;
}

/* One lookup in progress. */
typedef struct {
  KicResolver *resolver;
  KicResult *result;
  guint scan_start;  /* calls made before the directory scan that hit */
  char *scan_file;   /* the file name that scan looked for */
} Lookup;

static void
call_free (gpointer data)
{
  KicCall *call = data;

  g_free (call->path);
  g_free (call);
}

KicResolver *
kic_resolver_new (KicResolverSetup *setup, KicFsIndex *index)
{
  KicResolver *resolver = g_new0 (KicResolver, 1);

  resolver->index = index;
  resolver->themes = g_steal_pointer (&setup->themes);
  resolver->data_dirs = g_strdupv (setup->data_dirs);
  resolver->data_home_hidden = setup->data_home_hidden;
  resolver->user_search_paths = g_strdupv (setup->user_search_paths);
  resolver->generic_icons = g_steal_pointer (&setup->generic_icons);
  memcpy (resolver->group_size, setup->group_size, sizeof resolver->group_size);
  return resolver;
}

void
kic_resolver_free (KicResolver *resolver)
{
  if (resolver == NULL)
    return;
  g_ptr_array_unref (resolver->themes);
  g_strfreev (resolver->data_dirs);
  g_strfreev (resolver->user_search_paths);
  if (resolver->generic_icons)
    g_hash_table_unref (resolver->generic_icons);
  g_free (resolver);
}

const GPtrArray *
kic_resolver_themes (const KicResolver *resolver)
{
  return resolver->themes;
}

int
kic_resolver_group_size (const KicResolver *resolver, KicGroup group)
{
  return resolver->group_size[group];
}

void
kic_result_free (KicResult *result)
{
  if (result == NULL)
    return;
  g_free (result->path);
  if (result->calls)
    g_ptr_array_unref (result->calls);
  g_free (result);
}

const char *
kic_via_to_string (KicVia via)
{
  switch (via)
    {
    case KIC_VIA_NONE:
      return "none";
    case KIC_VIA_ABSOLUTE:
      return "absolute";
    case KIC_VIA_THEME:
      return "theme";
    case KIC_VIA_GENERIC:
      return "generic";
    case KIC_VIA_USER:
      return "user";
    }
  return "?";
}

/* Count one file system call (and remember it when recording). */
static void
count_call (Lookup *lookup, KicCallKind kind, const char *path, gboolean hit)
{
  lookup->result->n_calls++;
  if (lookup->result->calls != NULL)
    {
      KicCall *call = g_new0 (KicCall, 1);

      call->kind = kind;
      call->path = g_strdup (path);
      call->hit = hit;
      g_ptr_array_add (lookup->result->calls, call);
    }
}

void
kic_resolver_set_overlay (KicResolver *resolver, const KicOverlay *overlay)
{
  resolver->overlay = overlay;
}

/* What FILE in theme directory DIR is; FILE may hold a '/' when Icon=
 * does.  Files of the overlay exist as regular files, or not at all. */
static KicFsType
index_type (KicResolver *resolver, KicThemeDir *dir, const char *file)
{
  KicFsIndex *index = resolver->index;
  gboolean add;

  if (strchr (file, '/') != NULL)
    {
      /* a name with a '/' (Icon=../22/foo): ask the overlay about the
       * file it really names */
      g_autofree char *joined = g_strconcat (dir->path, "/", file, NULL);
      g_autofree char *clean = kic_path_clean (joined);
      g_autofree char *parent = g_path_get_dirname (clean);
      g_autofree char *base = g_path_get_basename (clean);

      if (resolver->overlay != NULL && kic_overlay_lookup (resolver->overlay, parent, base, &add))
        return add ? KIC_FS_FILE : KIC_FS_NONE;
      return kic_fs_index_stat (index, joined);
    }
  if (resolver->overlay != NULL && kic_overlay_lookup (resolver->overlay, dir->path, file, &add))
    return add ? KIC_FS_FILE : KIC_FS_NONE;
  if (!dir->listed)
    {
      dir->listing = kic_fs_index_dir (index, dir->path);
      dir->listed = TRUE;
    }
  return dir->listing ? kic_fs_index_dir_stat (index, dir->listing, file) : KIC_FS_NONE;
}

/* kicontheme.cpp:783-792, KIconThemeDir::iconPath(): QFileInfo::exists()
 * is one access(F_OK), true for anything that exists after following links;
 * a hit goes through KLocalizedString::localizedFilePath(), which stats
 * "<dir>/l10n" (KDE/ki18n@v5.103.0:src/i18n/klocalizedstring.cpp:1332). */
static gboolean
probe_theme_dir (Lookup *lookup, const KicThemeDir *dir, const char *file)
{
  g_autofree char *path = NULL;
  gboolean hit = index_type (lookup->resolver, (KicThemeDir *) dir, file) != KIC_FS_NONE;

  if (lookup->result->calls != NULL)
    path = g_strconcat (dir->path, "/", file, NULL);
  count_call (lookup, KIC_CALL_ACCESS, path, hit);
  if (hit)
    {
      g_autofree char *l10n = g_strconcat (dir->path, "/l10n", NULL);
      gboolean has_l10n = kic_fs_index_stat (lookup->resolver->index, l10n) == KIC_FS_DIR;

      count_call (lookup, KIC_CALL_L10N, l10n, has_l10n);
      /* with an l10n directory KDE also tries "l10n/<lang>/<file>"; we
       * cannot know the user's language, so we count one try that fails
       * (measured with LANG=C.UTF-8: tests/oracle/FINDINGS.md) */
      if (has_l10n)
        {
          g_autofree char *localized = g_strconcat (l10n, "/$LANG/", file, NULL);

          count_call (lookup, KIC_CALL_L10N, localized, FALSE);
        }
    }
  return hit;
}

/* kicontheme.cpp:173-259, KIconThemePrivate::iconPath() with MatchBest over
 * the unscaled directories at scale 1.  A hit ends the scan only when its
 * distance is 0; otherwise the scan goes on, skipping directories that are
 * not closer (:235), and the closest hit wins. */
static const KicThemeDir *
scan_dirs (Lookup *lookup, const GPtrArray *dirs, const char *file, int size)
{
  const KicThemeDir *best = NULL;
  int delta = -INT_MAX;

  for (guint i = 0; i < dirs->len; i++)
    {
      const KicThemeDir *dir = g_ptr_array_index (dirs, i);
      int dw;

      /* :191: only directories of the requested (integer) scale */
      if (dir->spec->scale != 1)
        continue;
      dw = kic_dir_spec_distance (dir->spec, size);
      /* :235: not closer than the best hit, or an upscale after a downscale */
      if (abs (dw) >= abs (delta) && (dw < 0 || delta > 0))
        continue;
      if (!probe_theme_dir (lookup, dir, file))
        continue;
      best = dir;
      delta = dw;
      if (delta == 0)
        break;
    }
  return best;
}

/* kicontheme.cpp:533-566, KIconTheme::iconPathByName(): each extension of
 * the theme in turn; per extension first the scaled directories with
 * MatchExact (at scale 1 none of them has the right scale, :191, so they
 * cost nothing), then the unscaled ones with MatchBest. */
static gboolean
theme_lookup (Lookup *lookup, const KicTheme *theme, const char *name, int size)
{
  for (guint e = 0; theme->desc->extensions[e] != NULL; e++)
    {
      g_autofree char *file = g_strconcat (name, theme->desc->extensions[e], NULL);
      guint start = lookup->result->n_calls;
      const KicThemeDir *dir = scan_dirs (lookup, theme->dirs, file, size);

      if (dir != NULL)
        {
          lookup->result->path = g_strconcat (dir->path, "/", file, NULL);
          lookup->result->theme = theme;
          lookup->result->dir = dir;
          lookup->scan_start = start;
          lookup->scan_file = g_steal_pointer (&file);
          return TRUE;
        }
    }
  return FALSE;
}

/* :877-888: bare media types get "-x-generic" (as update-mime-database
 * does for a mime type without a generic icon) */
static gboolean
is_media_type (const char *name)
{
  static const char *const media_types[] = {
    "text", "application", "image", "audio", "inode", "video",
    "message", "model", "multipart", "x-content", "x-epoc", NULL,
  };

  return g_strv_contains (media_types, name);
}

/* :858-892: the next name to try in the same theme, in place: cut at the
 * last '-' while that dash is past index 1 (dropping a trailing "-x"), or
 * make a bare media type "<media>-x-generic" and set *GENERIC.  FALSE when
 * there is no next name. */
static gboolean
next_variant (char **current, gboolean *generic)
{
  char *name = *current;
  const char *dash = strrchr (name, '-');

  if (dash != NULL && dash - name > 1)
    {
      name[dash - name] = '\0';
      if (g_str_has_suffix (name, "-x"))
        name[strlen (name) - 2] = '\0';
      return TRUE;
    }
  if (is_media_type (name))
    {
      *current = g_strconcat (name, "-x-generic", NULL);
      g_free (name);
      *generic = TRUE;
      return TRUE;
    }
  return FALSE;
}

/* :832-911, KIconLoaderPrivate::findMatchingIcon().  Per theme: the name,
 * then its next variants.  Note that genericFallback (:844) is set once for
 * the whole loop: after a name has reached its -x-generic form in one
 * theme, later themes only try the name itself. */
static gboolean
find_matching_icon (Lookup *lookup, const char *name, int size)
{
  gboolean generic_fallback = g_str_has_suffix (name, "-x-generic");

  for (guint t = 0; t < lookup->resolver->themes->len; t++)
    {
      const KicTheme *theme = g_ptr_array_index (lookup->resolver->themes, t);
      g_autofree char *current = g_strdup (name);

      while (current[0] != '\0')
        {
          if (theme_lookup (lookup, theme, current, size))
            return TRUE;
          if (generic_fallback || !next_variant (&current, &generic_fallback))
            break;
        }
    }
  /* :894-908: QIcon::fallbackSearchPaths() is empty in a Plasma session
   * (the KDE platform theme sets none), so nothing is probed here. */
  return FALSE;
}

/* A variant with a '/' (Icon=../48/foo) probes a file named after its
 * last component, in another directory: that is the stem that counts. */
static void
add_stem (GPtrArray *stems, const char *variant)
{
  g_ptr_array_add (stems, g_strdup (variant));
  if (strchr (variant, '/') != NULL)
    g_ptr_array_add (stems, g_path_get_basename (variant));
}

static void
add_variants (GPtrArray *stems, const char *name)
{
  g_autofree char *current = g_strdup (name);
  gboolean generic = g_str_has_suffix (name, "-x-generic");

  add_stem (stems, current);
  while (!generic && next_variant (&current, &generic))
    add_stem (stems, current);
}

GPtrArray *
kic_resolver_lookup_stems (KicResolver *resolver, const char *name)
{
  GPtrArray *stems = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *valid = g_utf8_make_valid (name, -1);
  g_autofree char *stripped = kic_icon_name_strip_extension (valid);
  const char *generic;

  if (name[0] == '\0' || kic_icon_name_is_absolute (name))
    return stems;
  add_variants (stems, stripped);
  generic = resolver->generic_icons ? g_hash_table_lookup (resolver->generic_icons, stripped) : NULL;
  if (generic != NULL)
    add_variants (stems, generic);
  return stems;
}

/* :946-962, KIconLoaderPrivate::locate(): each search path; a relative one
 * through QStandardPaths::locate(GenericDataLocation), which stats the file
 * in every data directory in turn and takes the first regular file. */
static gboolean
locate (Lookup *lookup, const char *file)
{
  KicResolver *resolver = lookup->resolver;

  for (guint s = 0; resolver->user_search_paths[s] != NULL; s++)
    {
      const char *sp = resolver->user_search_paths[s];

      if (g_path_is_absolute (sp))
        {
          g_autofree char *path = g_strconcat (sp, "/", file, NULL);
          gboolean hit = kic_fs_index_stat (resolver->index, path) != KIC_FS_NONE;

          count_call (lookup, KIC_CALL_ACCESS, path, hit);
          if (hit)
            {
              lookup->result->path = g_steal_pointer (&path);
              return TRUE;
            }
          continue;
        }
      if (resolver->data_home_hidden)
        {
          g_autofree char *path = g_strconcat ("$XDG_DATA_HOME/", sp, "/", file, NULL);

          count_call (lookup, KIC_CALL_STAT, path, FALSE);
        }
      for (guint d = 0; resolver->data_dirs[d] != NULL; d++)
        {
          g_autofree char *path = g_strconcat (resolver->data_dirs[d], "/", sp, "/", file, NULL);
          gboolean hit = kic_fs_index_stat (resolver->index, path) == KIC_FS_FILE;

          count_call (lookup, KIC_CALL_STAT, path, hit);
          if (hit)
            {
              lookup->result->path = g_steal_pointer (&path);
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* :982-994: the "User" group: .png, .svgz, .svg, .xpm, each over every
 * search path before the next extension. */
static gboolean
user_group_lookup (Lookup *lookup, const char *name)
{
  static const char *const extensions[] = { ".png", ".svgz", ".svg", ".xpm" };

  for (guint e = 0; e < G_N_ELEMENTS (extensions); e++)
    {
      g_autofree char *file = g_strconcat (name, extensions[e], NULL);

      if (locate (lookup, file))
        return TRUE;
    }
  return FALSE;
}

gboolean
kic_icon_name_is_absolute (const char *name)
{
  return name[0] == '/' || name[0] == ':';
}

const char *
kic_icon_name_extension (const char *name)
{
  static const char *const extensions[] = { ".png", ".xpm", ".svg", ".svgz" };

  for (guint e = 0; e < G_N_ELEMENTS (extensions); e++)
    if (g_str_has_suffix (name, extensions[e]))
      return extensions[e];
  return NULL;
}

char *
kic_icon_name_strip_extension (const char *name)
{
  const char *ext = kic_icon_name_extension (name);

  return g_strndup (name, strlen (name) - (ext ? strlen (ext) : 0));
}

/* :971-1028, KIconLoader::iconPath(name, -size, canReturnNull = true) */
static void
resolve_lookup (Lookup *lookup, const char *name, int size)
{
  KicResolver *resolver = lookup->resolver;
  g_autofree char *stripped = NULL;
  g_autofree char *valid = NULL;
  const char *generic;

  /* :974-977: empty and absolute names come back as they are */
  if (name[0] == '\0')
    return;
  if (kic_icon_name_is_absolute (name))
    {
      lookup->result->path = g_strdup (name);
      lookup->result->via = KIC_VIA_ABSOLUTE;
      return;
    }
  /* :979, :588-599; the name is a QString: bytes that are not UTF-8 have
   * become U+FFFD by now */
  valid = g_utf8_make_valid (name, -1);
  stripped = kic_icon_name_strip_extension (valid);
  /* :818-830: the themes, then the generic icon of a mime type name */
  if (find_matching_icon (lookup, stripped, size))
    {
      lookup->result->via = KIC_VIA_THEME;
      return;
    }
  generic = resolver->generic_icons ? g_hash_table_lookup (resolver->generic_icons, stripped) : NULL;
  if (generic != NULL && find_matching_icon (lookup, generic, size))
    {
      lookup->result->via = KIC_VIA_GENERIC;
      return;
    }
  /* :1017-1021: then the "User" group */
  if (user_group_lookup (lookup, stripped))
    lookup->result->via = KIC_VIA_USER;
}

KicResult *
kic_resolve (KicResolver *resolver, const char *name, int size, gboolean record)
{
  Lookup lookup = { resolver, g_new0 (KicResult, 1), 0, NULL };

  if (record)
    lookup.result->calls = g_ptr_array_new_with_free_func (call_free);
  resolve_lookup (&lookup, name, size);
  g_free (lookup.scan_file);
  return lookup.result;
}

/* Which theme, name and extension wins does not depend on the size: a
 * scan takes the first file it meets whatever its size and only looks on
 * for a closer one, and scans that find nothing probe every directory.  So
 * every size costs the same calls up to the winning scan, and only that
 * scan is run again per size. */
GPtrArray *
kic_resolve_sizes (KicResolver *resolver, const char *name, int min, int max)
{
  GPtrArray *results = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_result_free);
  Lookup first = { resolver, g_new0 (KicResult, 1), 0, NULL };

  resolve_lookup (&first, name, min);
  g_ptr_array_add (results, first.result);
  for (int s = min + 1; s <= max; s++)
    {
      KicResult *r = g_new0 (KicResult, 1);

      r->via = first.result->via;
      if (first.scan_file == NULL)
        {
          r->path = g_strdup (first.result->path);
          r->n_calls = first.result->n_calls;
        }
      else
        {
          Lookup lookup = { resolver, r, 0, NULL };

          r->n_calls = first.scan_start;
          r->theme = first.result->theme;
          r->dir = scan_dirs (&lookup, r->theme->dirs, first.scan_file, s);
          if (r->dir == NULL)
            {
              /* cannot happen with sane sizes (theme.c refuses others);
               * the full lookup is always right */
              kic_result_free (r);
              r = kic_resolve (resolver, name, s, FALSE);
            }
          else
            r->path = g_strconcat (r->dir->path, "/", first.scan_file, NULL);
        }
      g_ptr_array_add (results, r);
    }
  g_free (first.scan_file);
  return results;
}
