/* resolver.c - KDE's icon lookup over a KicFsIndex
 *
 * Citations are KDE/kiconthemes@v5.103.0:src/kiconloader.cpp unless
 * kicontheme.cpp is named; "§" is kde-lookup.md, which gives the lines of
 * the other generations, whose differences come from the profile.  The
 * loop order is theme -> name variant -> extension -> directory.
 */
#include "resolver.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "resolver-private.h"

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

  resolver->profile = setup->profile;
  resolver->index = index;
  resolver->themes = g_steal_pointer (&setup->themes);
  resolver->data_dirs = g_strdupv (setup->data_dirs);
  resolver->data_home_hidden = setup->data_home_hidden;
  resolver->user_search_paths = g_strdupv (setup->user_search_paths);
  resolver->generic_icons = g_steal_pointer (&setup->generic_icons);
  memcpy (resolver->group_size, setup->group_size, sizeof resolver->group_size);
  /* no directory is read here: a cache entry is filled when a lookup
   * first probes its directory, as KDE's own probes go */
  resolver->dir_caches = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  resolver->theme_names = setup->theme_names ? g_hash_table_ref (setup->theme_names) : kic_resolver_names_new ();
  for (guint t = 0; t < resolver->themes->len; t++)
    {
      KicTheme *theme = g_ptr_array_index (resolver->themes, t);

      if (!g_hash_table_contains (resolver->dir_caches, theme))
        g_hash_table_insert (resolver->dir_caches, theme, g_new0 (DirCache, theme->dirs->len + 1));
    }
  return resolver;
}

GHashTable *
kic_resolver_names_new (void)
{
  /* (each ThemeNames holds a reference to its theme: a key cannot be
   * freed and its address given to another theme while the table lives) */
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, resolver_theme_names_free);
}

void
kic_resolver_free (KicResolver *resolver)
{
  if (resolver == NULL)
    return;
  g_hash_table_unref (resolver->dir_caches);
  g_hash_table_unref (resolver->theme_names);
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
  if (result->shared > 0)
    {
      result->shared--;
      return;
    }
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

/* Count one file system call (and remember it when recording); a
 * resource probe is remembered but costs nothing. */
void
resolver_count_call (Lookup *lookup, KicCallKind kind, const char *path, gboolean hit)
{
  if (kind != KIC_CALL_RESOURCE && kind != KIC_CALL_RESOURCE_L10N)
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

/* The names one theme is asked for, in order (:845-892): NAME, then its
 * next variants until there is none, or until the -x-generic form, which
 * sets *GENERIC.  KF6 keeps "-symbolic" at the end of every cut and tries
 * each cut without it too (@v6.13.0 kiconloader.cpp:781-858).  KDE 3
 * tries the name only (§3.3).  transfer full */
static GPtrArray *
name_variants (const KicProfileTable *profile, const char *name, gboolean *generic)
{
  static const char symbolic_suffix[] = "-symbolic";
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  gboolean symbolic = profile->symbolic_variants && g_str_has_suffix (name, symbolic_suffix);
  char *current = g_strdup (name);

  g_ptr_array_add (names, g_strdup (current));
  while (profile->name_variants && !*generic)
    {
      if (symbolic)
        {
          current[strlen (current) - strlen (symbolic_suffix)] = '\0';
          g_ptr_array_add (names, g_strdup (current));
        }
      if (!next_variant (&current, generic))
        break;
      if (symbolic && !*generic)
        {
          char *with = g_strconcat (current, symbolic_suffix, NULL);

          g_free (current);
          current = with;
        }
      g_ptr_array_add (names, g_strdup (current));
    }
  g_free (current);
  return names;
}

/* @v4.14.2 kiconloader.cpp:903-991 (since 4.10.1, commit 23863e3cd1,
 * §3.2): before the usual search, each theme is asked for the plain name;
 * its answer counts only when it is an application icon. */
gboolean
resolver_apps_first_pass (Lookup *lookup, const char *name, int size)
{
  for (guint t = 0; t < lookup->resolver->themes->len; t++)
    if (resolver_theme_lookup (lookup, g_ptr_array_index (lookup->resolver->themes, t), name, size))
      {
        if (strstr (lookup->result->path, "/apps/") != NULL)
          return TRUE;
        resolver_discard_hit (lookup);
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
  const KicProfile *profile = lookup->resolver->profile;
  gboolean generic_fallback = g_str_has_suffix (name, "-x-generic");

  if (profile->apps_first_pass && resolver_apps_first_pass (lookup, name, size))
    return TRUE;
  g_autoptr (GPtrArray) names = NULL;

  for (guint t = 0; t < lookup->resolver->themes->len; t++)
    {
      const KicTheme *theme = g_ptr_array_index (lookup->resolver->themes, t);

      /* the same names for every theme, until the -x-generic form was
       * reached: then the name alone (name_variants() with *GENERIC set) */
      if (names == NULL || (generic_fallback && names->len > 1))
        {
          g_clear_pointer (&names, g_ptr_array_unref);
          names = name_variants (profile->table, name, &generic_fallback);
        }
      for (guint n = 0; n < names->len; n++)
        if (resolver_theme_lookup (lookup, theme, g_ptr_array_index (names, n), size))
          return TRUE;
    }
  /* :894-908: QIcon::fallbackSearchPaths() is empty in a Plasma session
   * (the KDE platform theme sets none), so nothing is probed here. */
  return FALSE;
}

/* A variant with a '/' (Icon=../48/foo) probes a file named after its
 * last component, in another directory (kicontheme.cpp:783-792 joins the
 * directory and the name as they are): that is the stem that counts. */
static void
add_stem (GPtrArray *stems, const char *variant)
{
  g_ptr_array_add (stems, g_strdup (variant));
  if (strchr (variant, '/') != NULL)
    g_ptr_array_add (stems, g_path_get_basename (variant));
}

static void
add_variants (const KicProfileTable *profile, GPtrArray *stems, const char *name)
{
  gboolean generic = g_str_has_suffix (name, "-x-generic");
  g_autoptr (GPtrArray) names = name_variants (profile, name, &generic);

  for (guint n = 0; n < names->len; n++)
    add_stem (stems, g_ptr_array_index (names, n));
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
  add_variants (resolver->profile->table, stems, stripped);
  generic = resolver->generic_icons ? g_hash_table_lookup (resolver->generic_icons, stripped) : NULL;
  if (generic != NULL)
    add_variants (resolver->profile->table, stems, generic);
  return stems;
}

/* What PATH is for the "User" group's stat: a link planted in a theme
 * directory that one of its directories resolves to is seen there too. */
static KicFsType
locate_type (Lookup *lookup, const char *path)
{
  KicFsType type;

  if (resolver_overlay_type (lookup->resolver, lookup->result->n_calls, path, FALSE, &type))
    return type;
  return kic_fs_index_stat (lookup->resolver->index, path);
}

gboolean
kic_resolver_cuts_to_generic (const KicResolver *resolver, const char *name)
{
  gboolean generic = g_str_has_suffix (name, "-x-generic");

  /* name_variants() sets GENERIC when a dash cut of NAME is a
   * "-x-generic" form; the variants themselves are not needed here */
  g_ptr_array_unref (name_variants (resolver->profile->table, name, &generic));
  return generic;
}

GPtrArray *
kic_resolver_user_dirs (const KicResolver *resolver)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);

  for (guint s = 0; resolver->user_search_paths[s] != NULL; s++)
    {
      const char *sp = resolver->user_search_paths[s];

      if (g_path_is_absolute (sp))
        g_ptr_array_add (dirs, g_strdup (sp));
      else
        for (guint d = 0; resolver->data_dirs[d] != NULL; d++)
          g_ptr_array_add (dirs, g_strconcat (resolver->data_dirs[d], "/", sp, NULL));
    }
  return dirs;
}

/* :946-962, KIconLoaderPrivate::locate(): each search path; a relative one
 * through QStandardPaths::locate(GenericDataLocation), which stats the file
 * in every data directory in turn and takes the first regular file.  An
 * absolute one (KDE 3/4's appicon directories) is one stat of the file
 * (KStandardDirs::findResource(), §4.3). */
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
          gboolean hit = locate_type (lookup, path) != KIC_FS_NONE;

          resolver_count_call (lookup, KIC_CALL_STAT, path, hit);
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

          resolver_count_call (lookup, KIC_CALL_STAT, path, FALSE);
        }
      for (guint d = 0; resolver->data_dirs[d] != NULL; d++)
        {
          g_autofree char *path = g_strconcat (resolver->data_dirs[d], "/", sp, "/", file, NULL);
          gboolean hit = locate_type (lookup, path) == KIC_FS_FILE;

          resolver_count_call (lookup, KIC_CALL_STAT, path, hit);
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
 * search path before the next extension (KDE 3/4: the same order over
 * the appicon directories, @v4.14.2 kiconloader.cpp:1025-1040; KF6 from
 * 6.19, @v6.19.0 kiconloader.cpp:956-968: .svg, .svgz, .png, .xpm --
 * the profile's user_extensions). */
static gboolean
user_group_lookup (Lookup *lookup, const char *name)
{
  const char *exts = lookup->resolver->profile->table->user_extensions;

  while (*exts != '\0')
    {
      gsize len = strcspn (exts, ",");
      g_autofree char *file = g_strdup_printf ("%s%.*s", name, (int) len, exts);

      if (locate (lookup, file))
        return TRUE;
      exts += len + (exts[len] == ',');
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
  static const gsize lengths[] = { 4, 4, 4, 5 };
  gsize n = strlen (name);

  /* (g_str_has_suffix() with the name measured once: this is asked of
   * every file of every theme directory searched) */
  for (guint e = 0; e < G_N_ELEMENTS (extensions); e++)
    if (n >= lengths[e] && memcmp (name + n - lengths[e], extensions[e], lengths[e]) == 0)
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
void
resolver_resolve_lookup (Lookup *lookup, const char *name, int size)
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
  resolver_resolve_lookup (&lookup, name, size);
  g_free (lookup.scan_file);
  return lookup.result;
}

/* Plasma 5's IconItem (plasma-framework@v5.103.0
 * src/declarativeimports/core/iconitem.cpp:175-181, SvgSource; again at
 * every paint, :235-240) asks KIconLoader::global()->theme(), the root
 * theme alone, for NAME.svg and then NAME.svgz, through
 * KIconTheme::iconPath(file, size, MatchBest) (kiconthemes@v5.103.0
 * src/kicontheme.cpp:554-563): no dash cuts, no inherited theme, no
 * "User" group, the name as it is.  An absolute name never gets here
 * (iconitem.cpp:355-372 loads the file itself). */
KicResult *
kic_resolve_icon_item (KicResolver *resolver, const char *name, int size, gboolean record)
{
  Lookup lookup = { resolver, g_new0 (KicResult, 1), 0, NULL };

  if (record)
    lookup.result->calls = g_ptr_array_new_with_free_func (call_free);
  if (kic_icon_name_is_absolute (name))
    {
      lookup.result->path = g_strdup (name);
      lookup.result->via = KIC_VIA_ABSOLUTE;
    }
  else if (name[0] != '\0' && resolver->themes->len > 0)
    {
      const KicTheme *root = g_ptr_array_index (resolver->themes, 0);
      g_autofree char *valid = g_utf8_make_valid (name, -1);

      if (resolver_scan_file (&lookup, root, valid, ".svg", size, FALSE) || resolver_scan_file (&lookup, root, valid, ".svgz", size, FALSE))
        lookup.result->via = KIC_VIA_THEME;
    }
  g_free (lookup.scan_file);
  return lookup.result;
}

GHashTable *
kic_resolver_generic_icons (const KicResolver *resolver)
{
  return resolver->generic_icons;
}

const char *
kic_resolver_generic_icon (const KicResolver *resolver, const char *name)
{
  return resolver->generic_icons != NULL ? g_hash_table_lookup (resolver->generic_icons, name) : NULL;
}
