/* state.c - the state a rebuild leaves for the next (state.h)
 *
 * The text, one record a line, fields separated by tabs, strings
 * g_strescape()d, an optional string "-" when absent and "=" before it
 * when present:
 *   kde-icon-cache state 1
 *   inputs <tab> DIGEST        the manifest's "# inputs:"
 *   key <tab> DIGEST           plan.c's key
 *   floor <tab> 0|1
 *   D <tab> PATH <tab> 1|0     a directory read (0: none there); then its names:
 *   E <tab> KIND <tab> NAME    'f' 'd' 'l' 'o', as readdir said
 *   L <tab> NAME <tab> TARGET <tab> ?REAL   a link that was followed
 *   N <tab> NAME <tab> STATUS <tab> ?REASON <tab> PER_SIZE <tab> ?BAN_REASON   a menu name
 *   C <tab> NAME <tab> STATUS <tab> ?REASON <tab> PER_SIZE <tab> ?BAN_REASON <tab> THEME
 *     <tab> n|c <tab> OWNER    a closure member, for the menu name OWNER or
 *                              the closure member number OWNER
 *   B <tab> THEME              of the last N or C: a theme the proof took from it
 *   P <tab> LINK <tab> SOURCE <tab> STORE <tab> THEME   ... a link
 *   S <tab> SIZE <tab> ?PATH <tab> BEFORE <tab> AFTER <tab> FLOOR <tab> ?WHY   ... a size report
 *   V <tab> NAME <tab> COUNT   lookups the proof checked for NAME
 *   end <tab> SHA256           of every byte before this line
 */
#include "state.h"

#include "kic.h"
#include "manifest.h"
#include "resolver.h"

#include <stdlib.h>
#include <string.h>

#define HEADER "kde-icon-cache state 1"

static void
put_str (GString *out, const char *s)
{
  g_autofree char *escaped = g_strescape (s, NULL);

  g_string_append_c (out, '\t');
  g_string_append (out, escaped);
}

static void
put_opt (GString *out, const char *s)
{
  if (s == NULL)
    {
      g_string_append (out, "\t-");
      return;
    }
  g_string_append (out, "\t=");
  {
    g_autofree char *escaped = g_strescape (s, NULL);

    g_string_append (out, escaped);
  }
}

static void
put_head (GString *out, const char *tag, const KicNamePlan *np)
{
  g_string_append (out, tag);
  put_str (out, np->name);
  put_str (out, kic_name_status_to_string (np->status));
  put_opt (out, np->reason);
  g_string_append_printf (out, "\t%d", np->per_size ? 1 : 0);
  put_opt (out, np->ban_reason);
}

static void
put_result (GString *out, const KicNamePlan *np)
{
  for (guint i = 0; i < np->banned->len; i++)
    {
      g_string_append (out, "B");
      put_str (out, g_ptr_array_index (np->banned, i));
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < np->plants->len; i++)
    {
      const KicPlant *plant = g_ptr_array_index (np->plants, i);

      g_string_append (out, "P");
      put_str (out, plant->link);
      put_str (out, plant->source);
      put_str (out, plant->store);
      put_str (out, plant->theme);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < np->sizes->len; i++)
    {
      const KicSizeReport *r = g_ptr_array_index (np->sizes, i);

      g_string_append_printf (out, "S\t%d", r->size);
      put_opt (out, r->path);
      g_string_append_printf (out, "\t%u\t%u\t%u", r->calls_before, r->calls_after, r->calls_floor);
      put_opt (out, r->floor_reason);
      g_string_append_c (out, '\n');
    }
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* KEY's of TABLE, sorted.  transfer container */
static GPtrArray *
sorted_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_strings);
  return keys;
}

/* Is PATH DIR or below it? */
static gboolean
is_under (const char *path, const char *dir)
{
  gsize n = strlen (dir);

  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *
kic_state_make (const KicPlan *plan, KicFsIndex *index, const char *store, const GPtrArray *owned,
                gboolean floor, const char *inputs)
{
  g_autoptr (GHashTable) listings = NULL;
  g_autoptr (GHashTable) ours = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) member_number = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) dirs = NULL;
  g_autoptr (GPtrArray) verified = NULL;
  GString *out;

  if (plan->key == NULL || inputs == NULL)
    return NULL;
  for (guint i = 0; owned != NULL && i < owned->len; i++)
    g_hash_table_add (ours, g_ptr_array_index (owned, i));
  out = g_string_new (HEADER "\n");
  g_string_append_printf (out, "inputs\t%s\nkey\t%s\nfloor\t%d\n", inputs, plan->key, floor ? 1 : 0);
  listings = kic_fs_index_listings (index);
  dirs = sorted_keys (listings);
  for (guint d = 0; d < dirs->len; d++)
    {
      const char *dir = g_ptr_array_index (dirs, d);
      GPtrArray *entries = g_hash_table_lookup (listings, dir);

      if (is_under (dir, store))
        continue;
      g_string_append (out, "D");
      put_str (out, dir);
      g_string_append_printf (out, "\t%d\n", entries != NULL);
      for (guint i = 0; entries != NULL && i < entries->len; i++)
        {
          const KicFsListingEntry *e = g_ptr_array_index (entries, i);
          g_autofree char *path = g_build_filename (dir, e->name, NULL);

          if (g_hash_table_contains (ours, path))
            continue; /* a link of ours: not KDE's own */
          /* "X.xpm.png" has the store path of X.xpm's PNG twin: which
           * claims it first depends on every name (claim_store()) */
          if (g_str_has_suffix (e->name, ".xpm.png"))
            {
              kic_debug ("state: none kept ('%s' could share a store copy)", path);
              g_string_free (out, TRUE);
              return NULL;
            }
          if (e->target != NULL)
            {
              g_string_append (out, "L");
              put_str (out, e->name);
              put_str (out, e->target);
              put_opt (out, e->real);
            }
          else
            {
              g_string_append_printf (out, "E\t%c", e->kind);
              put_str (out, e->name);
            }
          g_string_append_c (out, '\n');
        }
    }
  for (guint i = 0; i < plan->names->len; i++)
    {
      const KicNamePlan *np = g_ptr_array_index (plan->names, i);

      put_head (out, "N", np);
      g_string_append_c (out, '\n');
      put_result (out, np);
    }
  for (guint i = 0; i < plan->closure->len; i++)
    g_hash_table_insert (member_number, g_ptr_array_index (plan->closure, i), GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < plan->closure->len; i++)
    {
      const KicNamePlan *np = g_ptr_array_index (plan->closure, i);
      guint owner = GPOINTER_TO_UINT (g_hash_table_lookup (member_number, np->closure_for));

      put_head (out, "C", np);
      put_str (out, np->closure_theme);
      if (owner > 0)
        g_string_append_printf (out, "\tc\t%u", owner - 1);
      else
        {
          g_string_append (out, "\tn");
          put_str (out, np->closure_for->name);
        }
      g_string_append_c (out, '\n');
      put_result (out, np);
    }
  verified = sorted_keys (plan->verified);
  for (guint i = 0; i < verified->len; i++)
    {
      const char *name = g_ptr_array_index (verified, i);

      g_string_append (out, "V");
      put_str (out, name);
      g_string_append_printf (out, "\t%u\n", GPOINTER_TO_UINT (g_hash_table_lookup (plan->verified, name)));
    }
  {
    g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) out->str, out->len);

    g_string_append_printf (out, "end\t%s\n", sum);
  }
  return g_string_free (out, FALSE);
}

/* ---- reading it back ------------------------------------------------ */

typedef struct {
  char *target;
  char *real;
} Followed;

typedef struct {
  GHashTable *kinds;    /* name -> GINT_TO_POINTER (kind) */
  GHashTable *followed; /* name -> Followed* */
} Listing;

static void
followed_free (gpointer data)
{
  Followed *f = data;

  g_free (f->target);
  g_free (f->real);
  g_free (f);
}

static void
listing_free (gpointer data)
{
  Listing *l = data;

  if (l == NULL)
    return;
  g_hash_table_unref (l->kinds);
  g_hash_table_unref (l->followed);
  g_free (l);
}

static Listing *
listing_new (void)
{
  Listing *l = g_new0 (Listing, 1);

  l->kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  l->followed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, followed_free);
  return l;
}

typedef struct {
  GHashTable *dirs; /* real path -> Listing* (NULL: no directory there) */
  KicPlanMemo *memo;
} Parsed;

/* A field of LINE as a string: escaped text (transfer full), or with OPT
 * "-" (NULL, *OK kept) or "=text". */
static char *
field (char **fields, guint i, gboolean opt, gboolean *ok)
{
  const char *f;

  for (guint k = 0; k <= i; k++)
    if (fields[k] == NULL)
      {
        *ok = FALSE;
        return NULL;
      }
  f = fields[i];
  if (!opt)
    return g_strcompress (f);
  if (strcmp (f, "-") == 0)
    return NULL;
  if (f[0] != '=')
    {
      *ok = FALSE;
      return NULL;
    }
  return g_strcompress (f + 1);
}

static gboolean
field_uint (char **fields, guint i, guint *value)
{
  char *end;
  guint64 v;

  for (guint k = 0; k <= i; k++)
    if (fields[k] == NULL)
      return FALSE;
  if (!g_ascii_isdigit (fields[i][0]))
    return FALSE;
  v = g_ascii_strtoull (fields[i], &end, 10);
  if (*end != '\0' || v > G_MAXUINT)
    return FALSE;
  *value = (guint) v;
  return TRUE;
}

/* Is PATH a clean absolute path? */
static gboolean
path_ok (const char *path)
{
  g_autofree char *clean = NULL;

  if (path == NULL || path[0] != '/')
    return FALSE;
  clean = kic_path_clean (path);
  return strcmp (clean, path) == 0 && kic_manifest_path_ok (path);
}

/* The records of TEXT after the header lines, into P; FALSE at the first
 * line that is not what a state holds. */
static gboolean
parse_records (char **lines, guint first, guint end, Parsed *p, char **why)
{
  Listing *dir = NULL;
  KicNamePlan *last = NULL;
  GHashTable *menu = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) owners = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) pending = g_ptr_array_new ();
  gboolean ok = TRUE;
  guint i;

  for (i = first; ok && i < end; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "\t", -1);
      const char *tag = f[0];

      if (strcmp (tag, "D") == 0)
        {
          g_autofree char *path = field (f, 1, FALSE, &ok);

          ok = ok && path_ok (path) && f[2] != NULL && (strcmp (f[2], "0") == 0 || strcmp (f[2], "1") == 0)
               && !g_hash_table_contains (p->dirs, path);
          if (ok)
            {
              dir = f[2][0] == '1' ? listing_new () : NULL;
              g_hash_table_insert (p->dirs, g_steal_pointer (&path), dir);
            }
          last = NULL;
        }
      else if (strcmp (tag, "E") == 0 || strcmp (tag, "L") == 0)
        {
          gboolean link = tag[0] == 'L';
          g_autofree char *name = field (f, link ? 1 : 2, FALSE, &ok);

          ok = ok && dir != NULL && name[0] != '\0' && strchr (name, '/') == NULL
               && !g_hash_table_contains (dir->kinds, name);
          if (ok && link)
            {
              Followed *fl = g_new0 (Followed, 1);

              fl->target = field (f, 2, FALSE, &ok);
              fl->real = field (f, 3, TRUE, &ok);
              ok = ok && path_ok (fl->target) && (fl->real == NULL || path_ok (fl->real));
              g_hash_table_insert (dir->followed, g_strdup (name), fl);
              g_hash_table_insert (dir->kinds, g_steal_pointer (&name), GINT_TO_POINTER ('l'));
            }
          else if (ok)
            {
              ok = f[1] != NULL && strlen (f[1]) == 1 && strchr ("fdlo", f[1][0]) != NULL;
              if (ok)
                g_hash_table_insert (dir->kinds, g_steal_pointer (&name), GINT_TO_POINTER (f[1][0]));
            }
        }
      else if (strcmp (tag, "N") == 0 || strcmp (tag, "C") == 0)
        {
          g_autofree char *name = field (f, 1, FALSE, &ok);
          g_autofree char *status = field (f, 2, FALSE, &ok);
          KicNamePlan *np = ok ? kic_name_plan_new (name) : NULL;

          dir = NULL;
          last = np;
          if (!ok)
            break;
          g_ptr_array_add (tag[0] == 'N' ? p->memo->names : p->memo->closure, np);
          np->reason = field (f, 3, TRUE, &ok);
          np->ban_reason = field (f, 5, TRUE, &ok);
          ok = ok && kic_name_status_from_string (status, &np->status) && f[4] != NULL
               && (strcmp (f[4], "0") == 0 || strcmp (f[4], "1") == 0);
          if (ok)
            np->per_size = f[4][0] == '1';
          if (ok && tag[0] == 'N')
            {
              ok = f[6] == NULL && !g_hash_table_contains (menu, np->name);
              if (ok)
                g_hash_table_insert (menu, np->name, np);
            }
          else if (ok)
            {
              guint owner = 0;

              np->closure_theme = field (f, 6, FALSE, &ok);
              if (ok && f[7] != NULL && strcmp (f[7], "n") == 0)
                {
                  g_autofree char *owner_name = field (f, 8, FALSE, &ok);

                  np->closure_for = ok ? g_hash_table_lookup (menu, owner_name) : NULL;
                  ok = ok && np->closure_for != NULL;
                }
              else
                {
                  /* a member's owner may come after it: resolved at the end */
                  ok = ok && f[7] != NULL && strcmp (f[7], "c") == 0 && field_uint (f, 8, &owner);
                  g_array_append_val (owners, owner);
                  g_ptr_array_add (pending, np);
                }
              ok = ok && f[9] == NULL;
            }
        }
      else if (strcmp (tag, "B") == 0)
        {
          char *theme = field (f, 1, FALSE, &ok);

          ok = ok && last != NULL;
          if (ok)
            g_ptr_array_add (last->banned, theme);
          else
            g_free (theme);
        }
      else if (strcmp (tag, "P") == 0)
        {
          KicPlant *plant = g_new0 (KicPlant, 1);

          plant->link = field (f, 1, FALSE, &ok);
          plant->source = field (f, 2, FALSE, &ok);
          plant->store = field (f, 3, FALSE, &ok);
          plant->theme = field (f, 4, FALSE, &ok);
          ok = ok && last != NULL && path_ok (plant->link) && path_ok (plant->source) && path_ok (plant->store)
               && f[5] == NULL;
          if (ok)
            g_ptr_array_add (last->plants, plant);
          else
            kic_plant_free (plant);
        }
      else if (strcmp (tag, "S") == 0)
        {
          KicSizeReport *r = g_new0 (KicSizeReport, 1);
          guint size = 0;

          r->path = field (f, 2, TRUE, &ok);
          r->floor_reason = field (f, 6, TRUE, &ok);
          ok = ok && last != NULL && field_uint (f, 1, &size) && field_uint (f, 3, &r->calls_before)
               && field_uint (f, 4, &r->calls_after) && field_uint (f, 5, &r->calls_floor) && f[7] == NULL;
          r->size = (int) size;
          if (ok)
            g_ptr_array_add (last->sizes, r);
          else
            {
              g_free (r->path);
              g_free (r->floor_reason);
              g_free (r);
            }
        }
      else if (strcmp (tag, "V") == 0)
        {
          g_autofree char *name = field (f, 1, FALSE, &ok);
          guint count = 0;

          ok = ok && field_uint (f, 2, &count) && f[3] == NULL
               && !g_hash_table_contains (p->memo->verified, name);
          if (ok)
            g_hash_table_insert (p->memo->verified, g_steal_pointer (&name), GUINT_TO_POINTER (count));
          last = NULL;
          dir = NULL;
        }
      else
        ok = FALSE;
    }
  for (guint k = 0; ok && k < pending->len; k++)
    {
      KicNamePlan *np = g_ptr_array_index (pending, k);
      guint owner = g_array_index (owners, guint, k);

      ok = owner < p->memo->closure->len && g_ptr_array_index (p->memo->closure, owner) != np;
      if (ok)
        np->closure_for = g_ptr_array_index (p->memo->closure, owner);
    }
  if (!ok)
    *why = g_strdup_printf ("line %u is not what a state holds", i + 1);
  g_hash_table_unref (menu);
  return ok;
}

/* The entries (DIR, NAME) of CHANGED as "DIR/NAME" in E. */
static void
add_entry (GHashTable *e, const char *dir, const char *name)
{
  g_hash_table_add (e, g_build_filename (dir, name, NULL));
}

/* Does any directory entry PATH walks through (each component in its
 * parent) lie in E? */
static gboolean
walks_through (GHashTable *e, const char *path)
{
  g_autofree char *walk = g_strdup (path);
  char *slash;

  if (path == NULL)
    return FALSE;
  /* "/a/b/c": "/a/b/c", "/a/b", "/a" */
  for (;;)
    {
      if (g_hash_table_contains (e, walk))
        return TRUE;
      slash = strrchr (walk, '/');
      if (slash == NULL || slash == walk)
        return FALSE;
      *slash = '\0';
    }
}

/* Compare the listing of DIR now (through INDEX, without OURS) with WAS
 * (NULL: no directory then); the names that came, went or changed go to E. */
static void
compare_dir (KicFsIndex *index, const char *dir, const Listing *was, GHashTable *ours, GHashTable *e)
{
  g_autoptr (GPtrArray) now = kic_fs_index_listing (index, dir);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; now != NULL && i < now->len; i++)
    {
      const KicFsListingEntry *entry = g_ptr_array_index (now, i);
      g_autofree char *path = g_build_filename (dir, entry->name, NULL);
      const Followed *fl;
      gpointer kind;

      if (g_hash_table_contains (ours, path))
        continue;
      g_hash_table_add (seen, entry->name);
      if (was == NULL || !g_hash_table_lookup_extended (was->kinds, entry->name, NULL, &kind)
          || GPOINTER_TO_INT (kind) != entry->kind)
        {
          add_entry (e, dir, entry->name);
          continue;
        }
      /* a link that was followed, pointing elsewhere now */
      fl = g_hash_table_lookup (was->followed, entry->name);
      if (fl != NULL && (g_strcmp0 (fl->target, entry->target) != 0 || g_strcmp0 (fl->real, entry->real) != 0))
        add_entry (e, dir, entry->name);
    }
  if (was == NULL)
    return;
  g_hash_table_iter_init (&iter, was->kinds);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (seen, key))
      add_entry (e, dir, key);
}

/* The stems of the icon names that came, went or changed since the state
 * was made (state.h). */
static GHashTable *
changed_stems (Parsed *p, KicFsIndex *index, GHashTable *changed, const GPtrArray *owned)
{
  g_autoptr (GHashTable) ours = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) e = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *stems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;
  gboolean more;

  for (guint i = 0; owned != NULL && i < owned->len; i++)
    g_hash_table_add (ours, g_ptr_array_index (owned, i));
  g_hash_table_iter_init (&iter, changed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gpointer was;

      if (g_hash_table_lookup_extended (p->dirs, key, NULL, &was))
        compare_dir (index, key, was, ours, e);
      else
        g_hash_table_add (e, g_strdup (key)); /* a file read: its content */
    }
  /* a link that led through a name that changed changed with it */
  do
    {
      more = FALSE;
      g_hash_table_iter_init (&iter, p->dirs);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const Listing *l = value;
          GHashTableIter links;
          gpointer name, f;

          if (l == NULL)
            continue;
          g_hash_table_iter_init (&links, l->followed);
          while (g_hash_table_iter_next (&links, &name, &f))
            {
              const Followed *fl = f;
              g_autofree char *path = g_build_filename (key, name, NULL);

              if (!g_hash_table_contains (e, path) && (walks_through (e, fl->target) || walks_through (e, fl->real)))
                {
                  g_hash_table_add (e, g_steal_pointer (&path));
                  more = TRUE;
                }
            }
        }
    }
  while (more);
  g_hash_table_iter_init (&iter, e);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autofree char *base = g_path_get_basename (key);

      if (g_str_has_suffix (base, ".xpm.png"))
        {
          /* as kic_state_make(): no plan of names joined by a store path
           * is kept */
          g_hash_table_unref (stems);
          return NULL;
        }
      if (kic_icon_name_extension (base) != NULL)
        g_hash_table_add (stems, kic_icon_name_strip_extension (base));
    }
  kic_debug ("state: %u inputs changed, %u names in them, %u icon stems", g_hash_table_size (changed),
             g_hash_table_size (e), g_hash_table_size (stems));
  return stems;
}

KicPlanMemo *
kic_state_memo (const char *text, gsize length, const char *key, const char *inputs, KicFsIndex *index,
                GHashTable *changed, const GPtrArray *owned)
{
  g_auto (GStrv) lines = NULL;
  g_autofree char *why = NULL;
  g_autofree char *sum = NULL;
  const char *end;
  Parsed p = { 0 };
  guint n;

  if (text == NULL || key == NULL || inputs == NULL || changed == NULL)
    return NULL;
  /* whole: "end<tab>SHA256<newline>" last, the digest of all before it */
  end = length >= 69 ? text + length - 69 : NULL;
  if (end == NULL || memchr (text, '\0', length) != NULL || (end > text && end[-1] != '\n')
      || strncmp (end, "end\t", 4) != 0 || text[length - 1] != '\n')
    why = g_strdup ("cut short or not a state");
  else
    {
      sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) text, end - text);
      if (strncmp (end + 4, sum, 64) != 0)
        why = g_strdup ("its checksum does not match");
    }
  if (why == NULL)
    {
      lines = g_strsplit (text, "\n", -1);
      n = g_strv_length (lines);
      if (n < 6 || strcmp (lines[0], HEADER) != 0)
        why = g_strdup ("another version");
      else if (!g_str_has_prefix (lines[1], "inputs\t") || strcmp (lines[1] + 7, inputs) != 0)
        why = g_strdup ("not bound to the manifest");
      else if (!g_str_has_prefix (lines[2], "key\t") || strcmp (lines[2] + 4, key) != 0)
        why = g_strdup ("made with other settings, themes or directories");
      else if (strcmp (lines[3], "floor\t0") != 0 && strcmp (lines[3], "floor\t1") != 0)
        why = g_strdup ("line 4 is not what a state holds");
      else
        {
          p.dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, listing_free);
          p.memo = g_new0 (KicPlanMemo, 1);
          p.memo->names = g_ptr_array_new_with_free_func (kic_name_plan_free);
          p.memo->closure = g_ptr_array_new_with_free_func (kic_name_plan_free);
          p.memo->verified = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          p.memo->floor = lines[3][6] == '1';
          /* the records stop before the "end" line (then "" after its newline) */
          parse_records (lines, 4, n - 2, &p, &why);
        }
    }
  if (why != NULL)
    {
      kic_debug ("state: ignored (%s): planning every name", why);
      kic_plan_memo_free (p.memo);
      if (p.dirs != NULL)
        g_hash_table_unref (p.dirs);
      return NULL;
    }
  p.memo->changed_stems = changed_stems (&p, index, changed, owned);
  g_hash_table_unref (p.dirs);
  if (p.memo->changed_stems == NULL)
    {
      kic_debug ("state: ignored (an X.xpm.png came or went): planning every name");
      g_clear_pointer (&p.memo, kic_plan_memo_free);
    }
  return p.memo;
}
