/* fuzz-resolver.c - the KF5 lookup (kic_resolve, kic_resolve_sizes,
 * kic_resolver_lookup_stems) on a virtual file system built from the input
 *
 * Input, line oriented so that seeds can be written by hand:
 *
 *   NAME                  the first line: the Icon= value to look up
 *   index.theme text      of the theme "fz", up to a line "%%"
 *   %%
 *   entries, one a line:
 *     /abs/path           a regular file; "/abs/path/" a directory
 *     @N/rel/path         a file under directory N (modulo the count) of
 *                         fz, in /usr/share/icons/fz
 *     #N/rel/path         the same in directory N of KDE's hicolor, in
 *                         /usr/share/icons/hicolor
 *     -/abs/path          remove it (KIC_FS_NONE), unless a directory
 *     +/abs/path          overlay: the file exists (a planned link)
 *     x/abs/path          overlay: the file does not exist (an old link)
 *     =MIME GENERIC       mime/generic-icons: MIME's generic icon
 *     ?STEM               after the checks, files STEM<ext> appear in
 *                         every theme directory and every "User"
 *                         directory where nothing has that name, as
 *                         planted links do once written: when STEM is no
 *                         stem of kic_resolver_lookup_stems(), no lookup
 *                         of NAME may change at any size (the planner's
 *                         proof only checks names that may try a stem it
 *                         plants)
 *     S MIN MAX           the sizes kic_resolve_sizes() covers (default
 *                         15-49; at most 48 of them)
 *     !                   do not create fz's directories by themselves
 *     rel/path            a file under /usr/share/icons/fz
 *
 * Themes, as KDE builds them with fz current (test-resolver.c does the
 * same): fz, fz again, then KDE's built-in hicolor.  fz lies in
 * /usr/local/share/icons/fz and /usr/share/icons/fz.  Every directory of fz
 * exists in /usr/share/icons/fz unless "!" says otherwise.
 *
 * Invariants, at every size of the range, at the theme's DesktopDefault
 * (the size --resolve uses) and at 16 and 48:
 * - the call list has n_calls entries, every one with a path; without the
 *   list (checked at both ends of the range and at DesktopDefault) the
 *   result is the same;
 * - kic_resolve_sizes() gives the same path, via, theme, directory and
 *   n_calls as kic_resolve() at each size;
 * - an empty name costs nothing and finds nothing; an absolute one comes
 *   back as it is at no cost; any other name costs at least one call;
 * - no path exactly when KIC_VIA_NONE;
 * - a theme hit lies in one of the theme's unscaled directories, the file
 *   exists there (overlay first, then the index), its name is a stem of
 *   kic_resolver_lookup_stems() plus one of the theme's extensions, and the
 *   call list has a hit on that path;
 * - a "User" hit exists.
 */
#include "fsindex.h"
#include "fuzz-common.h"
#include "path.h"
#include "resolver.h"
#include "theme.h"

#include <limits.h>
#include <string.h>

#define FZ_BASE "/usr/share/icons/fz"
#define FZ_LOCAL_BASE "/usr/local/share/icons/fz"
#define HICOLOR_BASE "/usr/share/icons/hicolor"
#define MAX_DEFAULT_DIRS 128
#define MAX_ENTRIES 256
#define MAX_RANGE 48
/* a theme with thousands of directories times thousands of extensions is
 * slow in KDE too: such inputs only make timeouts */
#define MAX_PROBES_PER_NAME 8192

static gboolean skip_huge_ints;
static gboolean skip_slash_names;

int
LLVMFuzzerInitialize (G_GNUC_UNUSED int *argc, G_GNUC_UNUSED char ***argv)
{
  fuzz_init ();
  skip_huge_ints = fuzz_skip_known ("huge-ints");
  skip_slash_names = fuzz_skip_known ("slash-names");
  return 0;
}

/* KIC_FUZZ_SKIP_KNOWN=huge-ints: no int of the theme beyond the sane range */
static gboolean
desc_is_sane (const KicThemeDesc *desc)
{
  for (int g = 0; g < KIC_GROUP_LAST; g++)
    if (!fuzz_int_is_sane (desc->group_default[g]))
      return FALSE;
  for (guint i = 0; i < desc->dirs->len; i++)
    {
      const KicDirSpec *dir = g_ptr_array_index (desc->dirs, i);

      if (!(fuzz_int_is_sane (dir->size) && fuzz_int_is_sane (dir->min_size)
            && fuzz_int_is_sane (dir->max_size) && fuzz_int_is_sane (dir->threshold)))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  KicFsIndex *index;
  KicOverlay *overlay;
  gboolean use_overlay;
  char *probe_stem;
  KicResolver *resolver;
  char *name;
  int min;
  int max;
  int desktop_size;
} Setup;

/* PATH cleaned and cut into its directory and last component; FALSE for
 * "/" itself. */
static gboolean
split_path (const char *path, char **dir, char **base)
{
  g_autofree char *clean = kic_path_clean (path);

  if (strcmp (clean, "/") == 0)
    return FALSE;
  *dir = g_path_get_dirname (clean);
  *base = g_path_get_basename (clean);
  return TRUE;
}

static void
add_path (KicFsIndex *index, const char *path, KicFsType type)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  if (split_path (path, &dir, &base))
    kic_fs_index_add (index, dir, base, type);
}

static void
overlay_path (KicOverlay *overlay, const char *path, gboolean add)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  if (split_path (path, &dir, &base))
    kic_overlay_set (overlay, dir, base, add);
}

/* "N/rel" -> "<base>/<dir N>/rel" */
static char *
dir_relative (const KicThemeDesc *desc, const char *base, const char *spec)
{
  char *end;
  unsigned long n = strtoul (spec, &end, 10);
  const KicDirSpec *dir;

  if (end == spec || desc->dirs->len == 0)
    return NULL;
  dir = g_ptr_array_index (desc->dirs, n % desc->dirs->len);
  return g_strconcat (base, "/", dir->name, "/", *end == '/' ? end + 1 : end, NULL);
}

static void
parse_range (Setup *s, const char *line)
{
  char *end;
  long min = strtol (line, &end, 10);
  long max = strtol (end, NULL, 10);

  /* any int is a size (DesktopDefault=), but the loop of
   * kic_resolve_sizes() must not pass INT_MAX */
  min = CLAMP (min, INT_MIN + 1, INT_MAX - MAX_RANGE - 1);
  max = CLAMP (max, min, min + MAX_RANGE - 1);
  s->min = (int) min;
  s->max = (int) max;
}

/* the resolver's invariants below are KF5's */
static KicProfile kf5_profile;

static gboolean
setup_build (Setup *s, const char *text, size_t size)
{
  const char *data_dirs[] = { "/usr/local/share", "/usr/share", NULL };
  const char *search[] = { "fz/pics", "icons", "pixmaps", NULL };
  const char *nl = memchr (text, '\n', size);
  const char *theme_start = nl ? nl + 1 : text + size;
  const char *theme_end;
  const char *entries;
  g_autoptr (GPtrArray) bases = NULL;
  g_auto (GStrv) lines = NULL;
  KicResolverSetup setup = { 0 };
  KicThemeDesc *desc[2];
  KicThemeDesc *hicolor = kic_theme_desc_hicolor_embedded (kic_profile_table ("kf5"));
  gboolean default_dirs = TRUE;
  guint n_ext;

  s->name = g_strndup (text, nl ? (gsize) (nl - text) : size);
  /* the index.theme text ends at a "%%" line */
  theme_end = g_strstr_len (theme_start, text + size - theme_start, "\n%%\n");
  if (theme_end == NULL && size - (theme_start - text) >= 3 && strncmp (theme_start, "%%\n", 3) == 0)
    theme_end = theme_start - 1;
  entries = theme_end ? theme_end + 4 : text + size;
  if (theme_end == NULL)
    theme_end = text + size;
  else if (theme_end < theme_start)
    theme_end = theme_start;
  for (int i = 0; i < 2; i++)
    {
      desc[i] = kic_theme_desc_parse (kic_profile_table ("kf5"), "fz", FZ_BASE "/index.theme", theme_start,
                                      theme_end - theme_start, "Icon Theme", NULL);
      if (desc[i] == NULL)
        {
          if (i == 1)
            kic_theme_desc_free (desc[0]);
          kic_theme_desc_free (hicolor);
          return FALSE;
        }
    }
  n_ext = g_strv_length (desc[0]->extensions);
  if ((guint64) desc[0]->dirs->len * MAX (n_ext, 1) > MAX_PROBES_PER_NAME || n_ext > 64
      || (skip_huge_ints && !desc_is_sane (desc[0])))
    {
      kic_theme_desc_free (desc[0]);
      kic_theme_desc_free (desc[1]);
      kic_theme_desc_free (hicolor);
      return FALSE;
    }
  s->desktop_size = desc[0]->group_default[KIC_GROUP_DESKTOP];

  s->index = kic_fs_index_new_virtual ();
  s->overlay = kic_overlay_new ();
  s->min = 15;
  s->max = 49;
  lines = g_strsplit (entries, "\n", MAX_ENTRIES + 1);
  for (guint i = 0; lines[i] != NULL && i < MAX_ENTRIES; i++)
    if (strcmp (lines[i], "!") == 0)
      default_dirs = FALSE;
  if (default_dirs)
    for (guint d = 0; d < desc[0]->dirs->len && d < MAX_DEFAULT_DIRS; d++)
      {
        const KicDirSpec *spec = g_ptr_array_index (desc[0]->dirs, d);
        g_autofree char *path = g_strconcat (FZ_BASE, "/", spec->name, NULL);

        add_path (s->index, path, KIC_FS_DIR);
      }
  setup.generic_icons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; lines[i] != NULL && i < MAX_ENTRIES; i++)
    {
      const char *line = lines[i];
      g_autofree char *path = NULL;

      switch (line[0])
        {
        case '\0':
        case '!':
          break;
        case '/':
          add_path (s->index, line, g_str_has_suffix (line, "/") ? KIC_FS_DIR : KIC_FS_FILE);
          break;
        case '@':
          path = dir_relative (desc[0], FZ_BASE, line + 1);
          if (path != NULL)
            add_path (s->index, path, KIC_FS_FILE);
          break;
        case '#':
          path = dir_relative (hicolor, HICOLOR_BASE, line + 1);
          if (path != NULL)
            add_path (s->index, path, KIC_FS_FILE);
          break;
        case '-':
          /* only what is not a directory: a directory removed after
           * paths under it were looked up leaves them cached (fsindex.c
           * real_paths; RESULTS.md, finding 3), and nothing but the
           * tests removes anything from an index */
          if (kic_fs_index_stat (s->index, line + 1) != KIC_FS_DIR)
            add_path (s->index, line + 1, KIC_FS_NONE);
          break;
        case '+':
        case 'x':
          overlay_path (s->overlay, line + 1, line[0] == '+');
          s->use_overlay = TRUE;
          break;
        case '?':
          g_free (s->probe_stem);
          s->probe_stem = g_strdup (line + 1);
          break;
        case '=':
          {
            const char *space = strchr (line + 1, ' ');

            if (space != NULL)
              g_hash_table_replace (setup.generic_icons, g_strndup (line + 1, space - line - 1),
                                    g_strdup (space + 1));
          }
          break;
        case 'S':
          if (line[1] == ' ')
            {
              parse_range (s, line + 2);
              break;
            }
          /* fall through */
        default:
          path = g_strconcat (FZ_BASE, "/", line, NULL);
          add_path (s->index, path, KIC_FS_FILE);
          break;
        }
    }

  bases = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (bases, g_strdup (FZ_LOCAL_BASE));
  g_ptr_array_add (bases, g_strdup (FZ_BASE));
  setup.themes = g_ptr_array_new_with_free_func ((GDestroyNotify) kic_theme_free);
  for (int i = 0; i < 2; i++)
    g_ptr_array_add (setup.themes, kic_theme_new (desc[i], bases, NULL, TRUE, s->index));
  g_ptr_array_set_size (bases, 0);
  g_ptr_array_add (bases, g_strdup (HICOLOR_BASE));
  g_ptr_array_add (setup.themes, kic_theme_new (hicolor, bases, NULL, TRUE, s->index));
  kf5_profile.table = kic_profile_table ("kf5");
  setup.profile = &kf5_profile;
  setup.data_dirs = (char **) data_dirs;
  setup.data_home_hidden = TRUE;
  setup.user_search_paths = (char **) search;
  for (int g = 0; g < KIC_GROUP_LAST; g++)
    setup.group_size[g] = desc[0]->group_default[g];
  s->resolver = kic_resolver_new (&setup, s->index);
  if (s->use_overlay)
    kic_resolver_set_overlay (s->resolver, s->overlay);
  return TRUE;
}

static void
setup_clear (Setup *s)
{
  kic_resolver_free (s->resolver);
  kic_overlay_free (s->overlay);
  kic_fs_index_free (s->index);
  g_free (s->name);
  g_free (s->probe_stem);
}

/* What the resolver must have seen for FILE in DIR: the overlay first */
static gboolean
file_exists (Setup *s, const char *dir, const char *file)
{
  gboolean add;
  g_autofree char *path = NULL;

  if (s->use_overlay && kic_overlay_lookup (s->overlay, dir, file, &add))
    return add;
  path = g_strconcat (dir, "/", file, NULL);
  return kic_fs_index_stat (s->index, path) != KIC_FS_NONE;
}

static gboolean
dir_in_theme (const KicTheme *theme, const KicThemeDir *dir)
{
  for (guint i = 0; i < theme->dirs->len; i++)
    if (g_ptr_array_index (theme->dirs, i) == dir)
      return TRUE;
  return FALSE;
}

static gboolean
theme_in_resolver (Setup *s, const KicTheme *theme)
{
  const GPtrArray *themes = kic_resolver_themes (s->resolver);

  for (guint i = 0; i < themes->len; i++)
    if (g_ptr_array_index (themes, i) == theme)
      return TRUE;
  return FALSE;
}

/* what a failed check was looking at */
static void
describe (const Setup *s, const KicResult *r, int size)
{
  fprintf (stderr, "name '%s' at %d: via %s, path %s, dir %s, %u calls\n", s->name, size,
           kic_via_to_string (r->via), r->path ? r->path : "(none)",
           r->dir ? r->dir->path : "(none)", r->n_calls);
}

static void
check_result (Setup *s, const KicResult *r, const GPtrArray *stems, int size)
{
  const char *name = s->name;

  if (getenv ("KIC_FUZZ_VERBOSE") != NULL)
    describe (s, r, size);

  FUZZ_CHECK ((r->path == NULL) == (r->via == KIC_VIA_NONE));
  if (name[0] == '\0')
    {
      FUZZ_CHECK (r->via == KIC_VIA_NONE && r->n_calls == 0);
      return;
    }
  if (kic_icon_name_is_absolute (name))
    {
      FUZZ_CHECK (r->via == KIC_VIA_ABSOLUTE && r->n_calls == 0);
      FUZZ_CHECK (strcmp (r->path, name) == 0);
      return;
    }
  FUZZ_CHECK (r->n_calls > 0);
  FUZZ_CHECK (r->via != KIC_VIA_ABSOLUTE);
  if (r->via == KIC_VIA_THEME || r->via == KIC_VIA_GENERIC)
    {
      size_t dlen;
      const char *file;
      gboolean stem_ok = FALSE;

      FUZZ_CHECK (r->theme != NULL && r->dir != NULL);
      FUZZ_CHECK (theme_in_resolver (s, r->theme));
      FUZZ_CHECK (dir_in_theme (r->theme, r->dir));
      FUZZ_CHECK (r->dir->spec->valid && r->dir->spec->scale == 1);
      dlen = strlen (r->dir->path);
      FUZZ_CHECK (strncmp (r->path, r->dir->path, dlen) == 0 && r->path[dlen] == '/');
      file = r->path + dlen + 1;
      FUZZ_CHECK (file_exists (s, r->dir->path, file));
      for (guint e = 0; r->theme->desc->extensions[e] != NULL && !stem_ok; e++)
        {
          const char *ext = r->theme->desc->extensions[e];

          if (g_str_has_suffix (file, ext))
            {
              g_autofree char *stem = g_strndup (file, strlen (file) - strlen (ext));

              for (guint i = 0; i < stems->len && !stem_ok; i++)
                stem_ok = strcmp (stem, g_ptr_array_index (stems, i)) == 0;
            }
        }
      FUZZ_CHECK (stem_ok);
    }
  else
    FUZZ_CHECK (r->theme == NULL && r->dir == NULL);
  if (r->via == KIC_VIA_USER)
    FUZZ_CHECK (kic_fs_index_stat (s->index, r->path) != KIC_FS_NONE);
}

static void
check_calls (const KicResult *r)
{
  gboolean hit_seen = FALSE;

  FUZZ_CHECK (r->calls != NULL);
  FUZZ_CHECK (r->calls->len == r->n_calls);
  for (guint i = 0; i < r->calls->len; i++)
    {
      const KicCall *call = g_ptr_array_index (r->calls, i);

      FUZZ_CHECK (call->path != NULL);
      FUZZ_CHECK (call->kind == KIC_CALL_ACCESS || call->kind == KIC_CALL_L10N
                  || call->kind == KIC_CALL_STAT);
      if (r->path != NULL && call->hit && call->kind != KIC_CALL_L10N && strcmp (call->path, r->path) == 0)
        hit_seen = TRUE;
    }
  if (r->via == KIC_VIA_THEME || r->via == KIC_VIA_GENERIC || r->via == KIC_VIA_USER)
    FUZZ_CHECK (hit_seen);
}

static void
check_same (const KicResult *a, const KicResult *b)
{
  FUZZ_CHECK (g_strcmp0 (a->path, b->path) == 0);
  FUZZ_CHECK (a->via == b->via);
  FUZZ_CHECK (a->n_calls == b->n_calls);
  FUZZ_CHECK (a->theme == b->theme);
  FUZZ_CHECK (a->dir == b->dir);
}

/* kic_resolve() at SIZE with the call list; without it too when PLAIN */
static void
check_size (Setup *s, int size, const KicResult *from_sizes, const GPtrArray *stems, gboolean plain)
{
  g_autoptr (KicResult) recorded = kic_resolve (s->resolver, s->name, size, TRUE);

  check_result (s, recorded, stems, size);
  check_calls (recorded);
  if (plain)
    {
      g_autoptr (KicResult) r = kic_resolve (s->resolver, s->name, size, FALSE);

      FUZZ_CHECK (r->calls == NULL);
      check_same (r, recorded);
    }
  if (from_sizes != NULL)
    {
      if (getenv ("KIC_FUZZ_VERBOSE") != NULL)
        describe (s, from_sizes, size);
      check_same (from_sizes, recorded);
    }
}

static const char *const user_extensions[] = { ".png", ".svgz", ".svg", ".xpm", NULL };

static gboolean
in_list (const GPtrArray *list, const char *s)
{
  for (guint i = 0; i < list->len; i++)
    if (strcmp (g_ptr_array_index (list, i), s) == 0)
      return TRUE;
  return FALSE;
}

/* Every file name a lookup of the name may try: each stem with each
 * extension of any theme, and of the "User" group. */
static GPtrArray *
probed_names (Setup *s, const GPtrArray *stems)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const GPtrArray *themes = kic_resolver_themes (s->resolver);

  for (guint i = 0; i < stems->len; i++)
    {
      const char *stem = g_ptr_array_index (stems, i);

      for (guint t = 0; t < themes->len; t++)
        {
          const KicTheme *theme = g_ptr_array_index (themes, t);

          for (guint e = 0; theme->desc->extensions[e] != NULL; e++)
            g_ptr_array_add (names, g_strconcat (stem, theme->desc->extensions[e], NULL));
        }
      for (guint e = 0; user_extensions[e] != NULL; e++)
        g_ptr_array_add (names, g_strconcat (stem, user_extensions[e], NULL));
    }
  return names;
}

/* ?STEM: files that no lookup of the name tries appear everywhere it
 * looks; kic_resolve_sizes() must give what it gave before.  They go into
 * the index, as the planner's links are on disk after a run (the planner
 * proves its plan with the overlay, which is checked by "+" lines). */
static void
check_probe_files (Setup *s, const GPtrArray *stems, const GPtrArray *before)
{
  static const char *const user_dirs[] = {
    "/usr/local/share/fz/pics", "/usr/share/fz/pics", "/usr/local/share/icons",
    "/usr/share/icons", "/usr/local/share/pixmaps", "/usr/share/pixmaps", NULL,
  };
  const GPtrArray *themes = kic_resolver_themes (s->resolver);
  g_autoptr (GPtrArray) probed = NULL;
  g_autoptr (GPtrArray) after = NULL;
  const char *stem = s->probe_stem;

  if (stem[0] == '\0' || strchr (stem, '/') != NULL || in_list (stems, stem)
      || kic_icon_name_is_absolute (s->name) || s->name[0] == '\0')
    return;
  /* KIC_FUZZ_SKIP_KNOWN=slash-names: RESULTS.md, finding 4 */
  if (skip_slash_names && strchr (s->name, '/') != NULL)
    return;
  probed = probed_names (s, stems);
  for (guint t = 0; t < themes->len; t++)
    {
      const KicTheme *theme = g_ptr_array_index (themes, t);

      for (guint e = 0; theme->desc->extensions[e] != NULL; e++)
        {
          g_autofree char *file = g_strconcat (stem, theme->desc->extensions[e], NULL);

          if (in_list (probed, file) || strcmp (file, ".") == 0 || strcmp (file, "..") == 0)
            continue;
          for (guint d = 0; d < theme->dirs->len; d++)
            {
              const char *dir = ((KicThemeDir *) g_ptr_array_index (theme->dirs, d))->path;

              /* a link is only planted where nothing is */
              if (kic_fs_index_stat_at (s->index, dir, file) == KIC_FS_NONE)
                kic_fs_index_add (s->index, dir, file, KIC_FS_FILE);
            }
        }
    }
  for (guint e = 0; user_extensions[e] != NULL; e++)
    {
      g_autofree char *file = g_strconcat (stem, user_extensions[e], NULL);

      if (in_list (probed, file) || strcmp (file, ".") == 0 || strcmp (file, "..") == 0)
        continue;
      for (guint d = 0; user_dirs[d] != NULL; d++)
        if (kic_fs_index_stat_at (s->index, user_dirs[d], file) == KIC_FS_NONE)
          kic_fs_index_add (s->index, user_dirs[d], file, KIC_FS_FILE);
    }
  after = kic_resolve_sizes (s->resolver, s->name, s->min, s->max);
  FUZZ_CHECK (after->len == before->len);
  for (guint i = 0; i < after->len; i++)
    {
      const KicResult *a = g_ptr_array_index (before, i);
      const KicResult *b = g_ptr_array_index (after, i);

      if (g_strcmp0 (a->path, b->path) != 0 || a->n_calls != b->n_calls)
        {
          fprintf (stderr, "probe files '%s<ext>' changed the lookup:\n", stem);
          describe (s, a, s->min + (int) i);
          describe (s, b, s->min + (int) i);
        }
      check_same (a, b);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  Setup s = { 0 };
  g_autoptr (GPtrArray) stems = NULL;
  g_autoptr (GPtrArray) all = NULL;
  /* the entry lines are split as a C string */
  g_autofree char *text = g_malloc (size + 1);

  if (size > 0)
    memcpy (text, data, size);
  text[size] = '\0';
  if (!setup_build (&s, text, size))
    {
      g_free (s.name);
      return 0;
    }
  if (skip_huge_ints && !(fuzz_int_is_sane (s.min) && fuzz_int_is_sane (s.max)))
    {
      setup_clear (&s);
      return 0;
    }
  stems = kic_resolver_lookup_stems (s.resolver, s.name);
  FUZZ_CHECK (stems != NULL);
  all = kic_resolve_sizes (s.resolver, s.name, s.min, s.max);
  FUZZ_CHECK (all->len == (guint) (s.max - s.min + 1));
  for (int sz = s.min; sz <= s.max; sz++)
    check_size (&s, sz, g_ptr_array_index (all, sz - s.min), stems, sz == s.min || sz == s.max);
  /* the size --resolve uses, and the menu's sizes */
  check_size (&s, s.desktop_size, NULL, stems, TRUE);
  check_size (&s, 16, NULL, stems, FALSE);
  check_size (&s, 48, NULL, stems, FALSE);
  if (s.probe_stem != NULL)
    check_probe_files (&s, stems, all);
  setup_clear (&s);
  return 0;
}
