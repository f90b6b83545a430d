/* state-write.c - writing the state a rebuild leaves for the next: the
 * text state.c's head describes and reads back (state.h)
 */
#include "state.h"

#include "desktop.h"
#include "diag.h"
#include "hash.h"
#include "number.h"
#include "path.h"
#include "resolver.h"
#include "sorted.h"

#include <string.h>
#include "state-private.h"

/* S as g_strcompress() reads it back: a backslash, and every control
 * character, escaped; other bytes as they are. */
static void
append_escaped (GString *out, const char *s)
{
  const char *run = s;

  for (const char *p = s; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c != '\\' && c >= 0x20 && c != 0x7f)
        continue;
      g_string_append_len (out, run, p - run);
      if (c == '\\')
        g_string_append (out, "\\\\");
      else
        g_string_append_printf (out, "\\%03o", c);
      run = p + 1;
    }
  g_string_append (out, run);
}

static void
put_str (GString *out, const char *s)
{
  g_string_append_c (out, '\t');
  append_escaped (out, s);
}

/* A tab and V in decimal */
static void
put_int (GString *out, gint64 v)
{
  char digits[KIC_INT64_DIGITS];
  gsize n = kic_format_int64 (digits, v);

  g_string_append_c (out, '\t');
  g_string_append_len (out, digits, n);
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
  append_escaped (out, s);
}

static void
put_head (GString *out, const char *tag, const KicNamePlan *np)
{
  g_string_append (out, tag);
  put_str (out, np->name);
  put_str (out, kic_name_status_to_string (np->status));
  put_opt (out, np->reason);
  put_int (out, np->per_size ? 1 : 0);
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

      g_string_append (out, "S");
      put_int (out, r->size);
      put_opt (out, r->path);
      put_int (out, r->calls_before);
      put_int (out, r->calls_after);
      put_int (out, r->calls_floor);
      put_opt (out, r->floor_reason);
      g_string_append_c (out, '\n');
    }
}

/* The E and L lines of the listing ENTRIES of DIR, but for the links of
 * ours (OURS); FALSE (nothing kept) at a name "X.xpm.png", which has the
 * store path of X.xpm's PNG twin: which claims it first depends on every
 * name (claim_store()). */
static gboolean
put_entries (GString *out, const char *dir, const GPtrArray *entries, GHashTable *ours, gboolean has_ours)
{
  g_autoptr (GString) entry_path = g_string_new (dir);
  gsize dir_len;

  /* ENTRY_PATH: "DIR/", then each entry's name after it */
  if (strcmp (dir, "/") != 0)
    g_string_append_c (entry_path, '/');
  dir_len = entry_path->len;
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      const KicFsListingEntry *e = g_ptr_array_index (entries, i);

      g_string_truncate (entry_path, dir_len);
      g_string_append (entry_path, e->name);
      if (has_ours && g_hash_table_contains (ours, entry_path->str))
        continue; /* a link of ours: not KDE's own */
      if (g_str_has_suffix (e->name, ".xpm.png"))
        {
          kic_debug ("state: none kept ('%s' could share a store copy)", entry_path->str);
          return FALSE;
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
          g_string_append (out, "E\t");
          g_string_append_c (out, e->kind);
          put_str (out, e->name);
        }
      g_string_append_c (out, '\n');
    }
  return TRUE;
}

/* The D, E and L lines of every listing INDEX keeps outside STORE: the
 * names of each directory, but for the links of ours (OWNED).  FALSE
 * when no state may be kept (put_entries()). */
static gboolean
put_listings (GString *out, KicFsIndex *index, const char *store, const GPtrArray *owned, const KicState *previous)
{
  g_autoptr (GHashTable) listings = kic_fs_index_listings (index);
  g_autoptr (GHashTable) ours = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GHashTable) our_dirs = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) dirs = kic_sorted_keys (listings);

  for (guint i = 0; owned != NULL && i < owned->len; i++)
    {
      const char *link = g_ptr_array_index (owned, i);

      g_hash_table_add (ours, (gpointer) link);
      g_hash_table_add (our_dirs, g_path_get_dirname (link));
    }
  for (guint d = 0; d < dirs->len; d++)
    {
      const char *dir = g_ptr_array_index (dirs, d);
      GPtrArray *entries = g_hash_table_lookup (listings, dir);
      gboolean has_ours = g_hash_table_contains (our_dirs, dir);
      const char *lines;
      gsize length;

      if (kic_path_is_under (dir, store))
        continue;
      /* a listing as the last state had it (kic_fs_index_listings(): it
       * is the one seeded from that state only while unchanged), none of
       * its names ours: its lines as they were, which is what
       * put_entries() would write of it (the last run wrote them so, and
       * wrote no state if a name was "X.xpm.png") */
      if (previous != NULL && entries != NULL && !has_ours
          && (lines = state_listing_text (previous, entries, &length)) != NULL)
        {
          g_string_append_len (out, lines, length);
          continue;
        }
      g_string_append (out, "D");
      put_str (out, dir);
      put_int (out, entries != NULL);
      g_string_append_c (out, '\n');
      if (!put_entries (out, dir, entries, ours, has_ours))
        return FALSE;
    }
  /* no name of a directory whose names are not known: the next run
   * reads it again (as far as it reads one), its stamp in the
   * fingerprint */
  {
    g_autoptr (GPtrArray) unlisted = kic_fs_index_unlisted (index);
    /* (3: not known because the run's budget was spent, which the next
     * run decides again, reading them: not seeded) */
    const char *why = kic_fs_index_budget_spent (index) ? "\t3\n" : "\t2\n";

    for (guint d = 0; d < unlisted->len; d++)
      if (!kic_path_is_under (g_ptr_array_index (unlisted, d), store))
        {
          gint64 names = kic_fs_index_unknown_names (index, g_ptr_array_index (unlisted, d));

          g_string_append (out, "D");
          put_str (out, g_ptr_array_index (unlisted, d));
          /* (how many names it held, when counted: the next run counts
           * it so while it is unchanged, and does not read it) */
          if (why[1] == '3' && names >= 0)
            g_string_append_printf (out, "\t3\t%" G_GINT64_FORMAT "\n", names);
          else
            g_string_append (out, why);
        }
  }
  return TRUE;
}

/* The F lines: the store copies' stamps. */
static void
put_store_stamps (GString *out, GHashTable *store_stamps)
{
  g_autoptr (GPtrArray) files = kic_sorted_keys (store_stamps);

  for (guint i = 0; i < files->len; i++)
    {
      const KicFsStamp *st = g_hash_table_lookup (store_stamps, g_ptr_array_index (files, i));

      g_string_append (out, "F");
      put_str (out, g_ptr_array_index (files, i));
      g_string_append_printf (out, "\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT, st->dev, st->ino);
      put_int (out, st->size);
      put_int (out, st->mtime_ns);
      put_int (out, st->ctime_ns);
      put_int (out, st->read_ns);
      g_string_append_c (out, '\n');
    }
}

/* The M lines: what each menu file said when it was read. */
static void
put_menu_files (GString *out, GHashTable *desktop_read)
{
  g_autoptr (GPtrArray) files = kic_sorted_keys (desktop_read);

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      const KicDesktopRead *read = g_hash_table_lookup (desktop_read, path);

      g_string_append (out, "M");
      put_str (out, path);
      put_int (out, read->hidden ? 1 : 0);
      put_opt (out, read->icon);
      g_string_append_c (out, '\n');
    }
}

/* The N lines of the menu's names, the C lines of the closure (a member's
 * owner by its number among them, or a menu name), each with its result,
 * and the V lines of the names the proof verified. */
static void
put_plans (GString *out, const KicPlan *plan)
{
  g_autoptr (GHashTable) member_number = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) verified = kic_sorted_keys (plan->verified);

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
  for (guint i = 0; i < verified->len; i++)
    {
      const char *name = g_ptr_array_index (verified, i);

      g_string_append (out, "V");
      put_str (out, name);
      put_int (out, GPOINTER_TO_UINT (g_hash_table_lookup (plan->verified, name)));
      g_string_append_c (out, '\n');
    }
}

char *
kic_state_make (const KicPlan *plan, KicFsIndex *index, const char *store, const GPtrArray *owned,
                GHashTable *desktop_read, GHashTable *store_stamps, gboolean floor, const char *inputs,
                const KicState *previous)
{
  g_autofree char *sum = NULL;
  GString *out;

  if (plan->key == NULL || inputs == NULL)
    return NULL;
  out = g_string_sized_new (1 << 20);
  g_string_append (out, KIC_STATE_HEADER "\n");
  /* (floor "-": no size reports, KicPlan.reports) */
  g_string_append_printf (out, "inputs\t%s\nkey\t%s\nfloor\t%s\n", inputs, plan->key,
                          !plan->reports ? "-" : floor ? "1" : "0");
  if (!put_listings (out, index, store, owned, previous))
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  if (store_stamps != NULL)
    put_store_stamps (out, store_stamps);
  if (desktop_read != NULL)
    put_menu_files (out, desktop_read);
  put_plans (out, plan);
  sum = kic_checksum64 (out->str, out->len);
  g_string_append_printf (out, "end\t%s\n", sum);
  return g_string_free (out, FALSE);
}
