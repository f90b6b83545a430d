/* plan-known.c - the names a lookup could be asked for, and which of them
 * may try a stem (the proof's index)
 *
 * The known names are the menu's names, the stem of every icon in every
 * directory of the themes searched, and of every icon the "User" group
 * finds (pixmaps, icons, <app>/pics: a name there whose dash cut meets a
 * link of UnthemedLinks=true changes from its own file to the link's),
 * and the names the proof adds (KF6's X-symbolic for a link X).
 *
 * Two ways to answer, with the same answers: from each directory's
 * sorted names (a filter of their first bytes, then a binary search), or
 * from one table of every known name, made by reading every name of
 * every directory.  A plan asks a question per stem its links and its
 * changes reach: tens to a hundred or so on the realistic tree (callgrind,
 * when this was written: 109 in a full plan, 51 in the rebuild after one
 * application is added, over 219 directories of 9 334 names), which the
 * directories answer for a fraction of what the table costs.  A tree of
 * very many directories makes every question dear: once the questions
 * have checked 16 directories for each name they hold, the table is made
 * and answers the rest (the bound on what the directories may cost).
 */
#include "plan-private.h"

#include "hash.h"
#include "resolver.h"
#include "sorted.h"

#include <string.h>

/* A directory's filter: bit prefix_bit() of each of its names that is
 * KIC_PREFIX long or longer, so that a question of such a length skips
 * most directories without a search (a name asked of a directory starts
 * with the question). */
#define KIC_PREFIX 3
#define KIC_FILTER_BITS 512

typedef struct {
  GPtrArray *names;   /* its file names, sorted (the index's strings) */
  const char *hiding; /* its key when it holds a previous run's links, which
                       * are no name of the themes; else NULL */
  guint64 filter[KIC_FILTER_BITS / 64];
} KnownDir;

static guint
prefix_bit (const char *s)
{
  const guchar *u = (const guchar *) s;

  return ((u[0] * 31u + u[1]) * 31u + u[2]) % KIC_FILTER_BITS;
}

/* May KD hold a name that starts with S (N bytes)? */
static gboolean
may_hold (const KnownDir *kd, const char *s, gsize n)
{
  guint bit;

  if (n < KIC_PREFIX)
    return TRUE;
  bit = prefix_bit (s);
  return (kd->filter[bit / 64] >> (bit % 64)) & 1;
}

static guint lower_bound (GPtrArray *sorted, const char *key, gboolean generic);

/* The names of KD that start with S (N bytes) are those from
 * first_with() on while starts_with() holds (the filter, then a binary
 * search). */
static guint
first_with (const KnownDir *kd, const char *s, gsize n)
{
  return may_hold (kd, s, n) ? lower_bound (kd->names, s, FALSE) : kd->names->len;
}

static gboolean
starts_with (const KnownDir *kd, guint f, const char *s, gsize n)
{
  return f < kd->names->len && strncmp (g_ptr_array_index (kd->names, f), s, n) == 0;
}

typedef struct {
  const char *generic; /* the mime/generic-icons name of NAME */
  const char *name;    /* a known name */
} GenericOf;

struct _PlanKnown {
  GArray *dirs;            /* KnownDir: each directory searched, once */
  guint64 n_files;         /* the names they hold */
  guint64 checks;          /* directories checked to answer so far */
  GHashTable *named;       /* the menu's names and those added (set) */
  GPtrArray *named_sorted; /* the same, sorted */
  GPtrArray *slash_names;  /* those with a '/' (a file name has none) */
  GHashTable *strings;     /* every string this index made (set, owned) */
  GHashTable *generic_icons; /* the first resolver's: mime name -> generic icon */
  /* the table, once made (NULL before) */
  GHashTable *all;           /* every known name (set) */
  GPtrArray *all_sorted;     /* the same, sorted */
  GPtrArray *generic_sorted; /* GenericOf*: each known name with a generic icon, by it */
};

/* The first index of SORTED (strings, or GenericOf* with GENERIC) whose
 * string is not below KEY. */
static guint
lower_bound (GPtrArray *sorted, const char *key, gboolean generic)
{
  guint lo = 0, hi = sorted->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const char *s = generic ? ((const GenericOf *) g_ptr_array_index (sorted, mid))->generic
                              : g_ptr_array_index (sorted, mid);

      if (strcmp (s, key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Is S BASE itself, or BASE and then a dash and more? */
static gboolean
extends (const char *s, const char *base, gsize n)
{
  return strncmp (s, base, n) == 0 && (s[n] == '\0' || s[n] == '-');
}

static int
compare_generic_of (gconstpointer a, gconstpointer b)
{
  const GenericOf *x = *(const GenericOf *const *) a, *y = *(const GenericOf *const *) b;
  int c = strcmp (x->generic, y->generic);

  return c != 0 ? c : strcmp (x->name, y->name);
}

/* The stem of FILE, an icon of KD: its length, or -1 when FILE is no
 * icon, or a previous run's link (not KDE's own: its name is no name of
 * the themes, so the plan is the same with the store or without). */
static gssize
icon_stem (Planner *p, const KnownDir *kd, const char *file)
{
  const char *ext = kic_icon_name_extension (file);
  gboolean add;

  if (ext == NULL || (kd->hiding != NULL && kic_overlay_lookup (p->base, kd->hiding, file, &add) && !add))
    return -1;
  return (gssize) (strlen (file) - strlen (ext));
}

/* The file names in DIR, on disk or in the library, sorted.  transfer
 * container */
static GPtrArray *
dir_files (Planner *p, const KicThemeDir *dir)
{
  GPtrArray *files;
  GHashTableIter iter;
  gpointer key;

  if (dir->resource_files == NULL)
    {
      const KicFsDir *listing = kic_fs_index_dir (p->system->index, dir->mirror ? dir->mirror : dir->path);

      return listing != NULL ? kic_fs_dir_sorted_names (listing) : NULL;
    }
  files = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, dir->resource_files);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (files, key);
  g_ptr_array_sort (files, kic_compare_strings);
  return files;
}

static void
add_dir (PlanKnown *k, GPtrArray *files, const char *hiding)
{
  KnownDir kd = { files, hiding, { 0 } };

  if (files == NULL)
    return;
  for (guint f = 0; f < files->len; f++)
    {
      const char *file = g_ptr_array_index (files, f);

      /* (a name shorter than KIC_PREFIX ends at one of the first three) */
      if (file[0] != '\0' && file[1] != '\0' && file[2] != '\0')
        {
          guint bit = prefix_bit (file);

          kd.filter[bit / 64] |= G_GUINT64_CONSTANT (1) << (bit % 64);
        }
    }
  g_array_append_val (k->dirs, kd);
  k->n_files += files->len;
}

static void
add_named (PlanKnown *k, const char *name)
{
  if (g_hash_table_contains (k->named, name))
    return;
  g_hash_table_add (k->named, (gpointer) name);
  g_ptr_array_insert (k->named_sorted, lower_bound (k->named_sorted, name, FALSE), (gpointer) name);
  if (strchr (name, '/') != NULL)
    g_ptr_array_add (k->slash_names, (gpointer) name);
}

/* NAME (its first N bytes; -1: all) as a string of the index's own (one
 * copy of each).  transfer none */
static const char *
intern (PlanKnown *k, const char *name, gssize n)
{
  char prefix[256];
  const char *key = name; /* NAME's N bytes as a string, before any copy */
  gpointer kept;
  char *copy;

  if (n >= 0 && name[n] != '\0')
    {
      key = (gsize) n < sizeof prefix ? memcpy (prefix, name, n) : NULL;
      if (key != NULL)
        prefix[n] = '\0';
    }
  /* most are asked again: look before copying */
  if (key != NULL && g_hash_table_lookup_extended (k->strings, key, &kept, NULL))
    return kept;
  copy = n < 0 ? g_strdup (name) : g_strndup (name, n);
  if (key == NULL && g_hash_table_lookup_extended (k->strings, copy, &kept, NULL))
    {
      g_free (copy);
      return kept;
    }
  g_hash_table_add (k->strings, copy);
  return copy;
}

void
plan_known_init (Planner *p, GPtrArray *names)
{
  PlanKnown *k = g_new0 (PlanKnown, 1);
  g_autoptr (GHashTable) listed = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) hiding = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);

  p->known = k;
  k->dirs = g_array_new (FALSE, FALSE, sizeof (KnownDir));
  k->named = g_hash_table_new (kic_str_hash, g_str_equal);
  k->named_sorted = g_ptr_array_new ();
  k->slash_names = g_ptr_array_new ();
  k->strings = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  k->generic_icons = kic_resolver_generic_icons (g_ptr_array_index (p->resolvers, 0));
  for (guint i = 0; i < names->len; i++)
    add_named (k, intern (k, ((KicNamePlan *) g_ptr_array_index (names, i))->name, -1));
  /* the directories that hold a previous run's links */
  for (guint i = 0; p->options->previous != NULL && i < p->options->previous->len; i++)
    g_hash_table_add (hiding, g_path_get_dirname (g_ptr_array_index (p->options->previous, i)));
  for (guint r = 0; r < p->resolvers->len; r++)
    {
      const GPtrArray *themes = kic_resolver_themes (g_ptr_array_index (p->resolvers, r));

      for (guint t = 0; t < themes->len; t++)
        {
          const KicTheme *theme = g_ptr_array_index (themes, t);

          for (guint d = 0; d < theme->dirs->len; d++)
            {
              const KicThemeDir *dir = g_ptr_array_index (theme->dirs, d);
              const char *key = dir->resource_files == NULL && dir->mirror == NULL ? plan_dir_key (p, dir) : NULL;

              /* each directory once, whichever resolvers search it */
              if (g_hash_table_contains (listed, dir->path))
                continue;
              g_hash_table_add (listed, dir->path);
              add_dir (k, dir_files (p, dir), key != NULL && g_hash_table_contains (hiding, key) ? key : NULL);
            }
        }
    }
  {
    g_autoptr (GPtrArray) user = kic_resolver_user_dirs (g_ptr_array_index (p->resolvers, 0));

    for (guint d = 0; d < user->len; d++)
      add_dir (k, kic_fs_index_list (p->system->index, g_ptr_array_index (user, d)), NULL);
  }
}

void
plan_known_free (PlanKnown *k)
{
  if (k == NULL)
    return;
  for (guint d = 0; d < k->dirs->len; d++)
    g_ptr_array_unref (g_array_index (k->dirs, KnownDir, d).names);
  g_array_unref (k->dirs);
  g_hash_table_unref (k->named);
  g_ptr_array_unref (k->named_sorted);
  g_ptr_array_unref (k->slash_names);
  if (k->all != NULL)
    {
      g_hash_table_unref (k->all);
      g_ptr_array_unref (k->all_sorted);
      g_ptr_array_unref (k->generic_sorted);
    }
  g_hash_table_unref (k->strings);
  g_free (k);
}

/* NAME with its generic icon, or NULL when it has none.  transfer full */
static GenericOf *
generic_of_new (PlanKnown *k, const char *name)
{
  const char *generic = k->generic_icons != NULL ? g_hash_table_lookup (k->generic_icons, name) : NULL;
  GenericOf *g;

  if (generic == NULL)
    return NULL;
  g = g_new (GenericOf, 1);
  g->generic = generic;
  g->name = name;
  return g;
}

static void
table_add (PlanKnown *k, const char *name)
{
  GenericOf *g;

  if (g_hash_table_contains (k->all, name))
    return;
  g_hash_table_add (k->all, (gpointer) name);
  g_ptr_array_insert (k->all_sorted, lower_bound (k->all_sorted, name, FALSE), (gpointer) name);
  if ((g = generic_of_new (k, name)) != NULL)
    {
      guint at = lower_bound (k->generic_sorted, g->generic, TRUE);

      while (at < k->generic_sorted->len && compare_generic_of (&g_ptr_array_index (k->generic_sorted, at), &g) < 0)
        at++;
      g_ptr_array_insert (k->generic_sorted, at, g);
    }
}

/* The table of every known name, from every name of every directory. */
static void
make_table (Planner *p)
{
  PlanKnown *k = p->known;
  GHashTableIter iter;
  gpointer key;

  k->all = g_hash_table_new (kic_str_hash, g_str_equal);
  for (guint i = 0; i < k->named_sorted->len; i++)
    g_hash_table_add (k->all, g_ptr_array_index (k->named_sorted, i));
  for (guint d = 0; d < k->dirs->len; d++)
    {
      const KnownDir *kd = &g_array_index (k->dirs, KnownDir, d);

      for (guint f = 0; f < kd->names->len; f++)
        {
          const char *file = g_ptr_array_index (kd->names, f);
          gssize n = icon_stem (p, kd, file);

          if (n >= 0)
            g_hash_table_add (k->all, (gpointer) intern (k, file, n));
        }
    }
  k->all_sorted = g_ptr_array_sized_new (g_hash_table_size (k->all));
  k->generic_sorted = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_iter_init (&iter, k->all);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      GenericOf *g = generic_of_new (k, key);

      g_ptr_array_add (k->all_sorted, key);
      if (g != NULL)
        g_ptr_array_add (k->generic_sorted, g);
    }
  g_ptr_array_sort (k->all_sorted, kic_compare_strings);
  g_ptr_array_sort (k->generic_sorted, compare_generic_of);
}

guint plan_known_checks_per_name = 16;

/* A question that checks every directory: past the budget, the table
 * answers it and every one after it. */
static gboolean
use_table (Planner *p)
{
  PlanKnown *k = p->known;

  if (k->all == NULL)
    {
      k->checks += k->dirs->len;
      if (k->checks > (guint64) plan_known_checks_per_name * k->n_files)
        make_table (p);
    }
  return k->all != NULL;
}

gboolean
plan_is_known (Planner *p, const char *name)
{
  PlanKnown *k = p->known;
  gsize n = strlen (name);

  if (g_hash_table_contains (k->named, name))
    return TRUE;
  if (use_table (p))
    return g_hash_table_contains (k->all, name);
  /* a file NAME.EXT, in some directory */
  for (guint d = 0; d < k->dirs->len; d++)
    {
      const KnownDir *kd = &g_array_index (k->dirs, KnownDir, d);

      for (guint f = first_with (kd, name, n); starts_with (kd, f, name, n); f++)
        if (icon_stem (p, kd, g_ptr_array_index (kd->names, f)) == (gssize) n)
          return TRUE;
    }
  return FALSE;
}

static void
add_if_trying (Planner *p, GPtrArray *out, GHashTable *seen, const char *name, const char *stem)
{
  g_autoptr (GPtrArray) stems = NULL;

  if (g_hash_table_contains (seen, name))
    return;
  g_hash_table_add (seen, (gpointer) name);
  stems = kic_resolver_lookup_stems (g_ptr_array_index (p->resolvers, 0), name);
  for (guint i = 0; i < stems->len; i++)
    if (strcmp (g_ptr_array_index (stems, i), stem) == 0)
      {
        g_ptr_array_add (out, (gpointer) name);
        return;
      }
}

/* The known names BASE (N bytes) starts, up to a dash, into OUT (each
 * checked against its stems): from the table, or from the directories. */
static void
names_extending (Planner *p, const char *base, gsize n, const char *stem, GPtrArray *out, GHashTable *seen)
{
  PlanKnown *k = p->known;
  GPtrArray *sorted = use_table (p) ? k->all_sorted : k->named_sorted;

  for (guint i = lower_bound (sorted, base, FALSE);
       i < sorted->len && strncmp (g_ptr_array_index (sorted, i), base, n) == 0; i++)
    if (extends (g_ptr_array_index (sorted, i), base, n))
      add_if_trying (p, out, seen, g_ptr_array_index (sorted, i), stem);
  if (k->all != NULL)
    {
      for (guint i = lower_bound (k->generic_sorted, base, TRUE); i < k->generic_sorted->len; i++)
        {
          const GenericOf *g = g_ptr_array_index (k->generic_sorted, i);

          if (strncmp (g->generic, base, n) != 0)
            break;
          if (extends (g->generic, base, n))
            add_if_trying (p, out, seen, g->name, stem);
        }
      return;
    }
  for (guint d = 0; d < k->dirs->len; d++)
    {
      const KnownDir *kd = &g_array_index (k->dirs, KnownDir, d);

      for (guint f = first_with (kd, base, n); starts_with (kd, f, base, n); f++)
        {
          const char *file = g_ptr_array_index (kd->names, f);
          gssize len = icon_stem (p, kd, file);

          if (len >= (gssize) n && (len == (gssize) n || file[n] == '-'))
            add_if_trying (p, out, seen, intern (k, file, len), stem);
        }
    }
  /* the known names whose generic icon BASE starts */
  if (k->generic_icons != NULL)
    {
      GHashTableIter iter;
      gpointer name, generic;

      g_hash_table_iter_init (&iter, k->generic_icons);
      while (g_hash_table_iter_next (&iter, &name, &generic))
        if (extends (generic, base, n) && !g_hash_table_contains (seen, name) && plan_is_known (p, name))
          add_if_trying (p, out, seen, name, stem);
    }
}

/* The known names whose lookups may try STEM (the stems follow the
 * generation and the mime data, which every resolver of the system
 * shares): worked out when first asked.  Every stem of a name N
 * (kic_resolver_lookup_stems()) is N, a dash cut of N, or one of those
 * with "-x-generic" or "-symbolic" after it, or the same of N's generic
 * icon (or, for a name with a '/', a last component): so, with that
 * ending taken off, the stem is N or its generic icon up to a dash.  The
 * names found so are each checked against their stems.  transfer none */
GPtrArray *
plan_names_trying (Planner *p, const char *stem)
{
  GPtrArray *out = g_hash_table_lookup (p->stem_names, stem);
  g_autoptr (GHashTable) seen = NULL;
  g_autofree char *base = NULL;

  if (out != NULL)
    return out;
  out = g_ptr_array_new ();
  seen = g_hash_table_new (kic_str_hash, g_str_equal);
  base = g_strdup (stem);
  if (g_str_has_suffix (base, "-x-generic"))
    base[strlen (base) - strlen ("-x-generic")] = '\0';
  else if (g_str_has_suffix (base, "-symbolic"))
    base[strlen (base) - strlen ("-symbolic")] = '\0';
  names_extending (p, base, strlen (base), stem, out, seen);
  for (guint i = 0; i < p->known->slash_names->len; i++)
    add_if_trying (p, out, seen, g_ptr_array_index (p->known->slash_names, i), stem);
  g_ptr_array_sort (out, kic_compare_strings);
  g_hash_table_insert (p->stem_names, g_strdup (stem), out);
  return out;
}

/* Make NAME a known name after the proof's indexes were made (KF6's
 * X-symbolic for a link X): into the index, and into every list
 * plan_names_trying() gave already for a stem NAME's lookups may try, so
 * that each list is what plan_names_trying() would work out now.  The
 * index's copy of NAME (transfer none). */
const char *
plan_add_known_name (Planner *p, const char *name)
{
  PlanKnown *k = p->known;
  g_autoptr (GPtrArray) stems = kic_resolver_lookup_stems (g_ptr_array_index (p->resolvers, 0), name);
  const char *kept = intern (k, name, -1);

  add_named (k, kept);
  if (k->all != NULL)
    table_add (k, kept);
  for (guint i = 0; i < stems->len; i++)
    {
      GPtrArray *tried_by = g_hash_table_lookup (p->stem_names, g_ptr_array_index (stems, i));
      guint at;

      if (tried_by == NULL)
        continue;
      at = lower_bound (tried_by, kept, FALSE);
      if (at < tried_by->len && strcmp (g_ptr_array_index (tried_by, at), kept) == 0)
        continue; /* a name's stems may repeat */
      g_ptr_array_insert (tried_by, at, (gpointer) kept);
    }
  return kept;
}
