/* state.c - the state a rebuild leaves for the next (state.h): its text, and
 * reading it back (state-write.c writes it)
 *
 * The text, one record a line, fields separated by tabs, strings
 * g_strescape()d, an optional string "-" when absent and "=" before it
 * when present:
 *   kde-icon-cache state 1
 *   inputs <tab> DIGEST        the manifest's "# inputs:"
 *   key <tab> DIGEST           plan.c's key
 *   floor <tab> 0|1|-          the size reports made with the floor, without,
 *                              or none made (KicPlan.reports)
 *   D <tab> PATH <tab> 1|0|2   a directory read (0: none there; 2: its names
 *                              not known, kic_fs_dir_listed(): no E line); then its names:
 *   E <tab> KIND <tab> NAME    'f' 'd' 'l' 'o', as readdir said
 *   L <tab> NAME <tab> TARGET <tab> ?REAL   a link that was followed
 *   F <tab> PATH <tab> DEV <tab> INO <tab> SIZE <tab> MTIME <tab> CTIME <tab> READ
 *                              a store copy as the writer left it (its
 *                              stamp: kic_writer_store_stamps(), ns)
 *   M <tab> PATH <tab> 0|1 <tab> ?ICON   a .desktop or .directory file read
 *                              (its real path): hidden or not, its Icon=
 *   N <tab> NAME <tab> STATUS <tab> ?REASON <tab> PER_SIZE <tab> ?BAN_REASON   a menu name
 *   C <tab> NAME <tab> STATUS <tab> ?REASON <tab> PER_SIZE <tab> ?BAN_REASON <tab> THEME
 *     <tab> n|c <tab> OWNER    a closure member, for the menu name OWNER or
 *                              the closure member number OWNER
 *   B <tab> THEME              of the last N or C: a theme the proof took from it
 *   P <tab> LINK <tab> SOURCE <tab> STORE <tab> THEME   ... a link
 *   S <tab> SIZE <tab> ?PATH <tab> BEFORE <tab> AFTER <tab> FLOOR <tab> ?WHY   ... a size report
 *   V <tab> NAME <tab> COUNT   lookups the proof checked for NAME
 *   end <tab> CHECKSUM         of every byte before this line (kic_checksum64():
 *                              the state is bound to the manifest by its
 *                              inputs line; this only tells it whole)
 */
#include "state.h"

#include "desktop.h"
#include "diag.h"
#include "hash.h"
#include "manifest.h"
#include "path.h"
#include "resolver.h"
#include "safeopen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "state-private.h"

static void
listing_free (gpointer data)
{
  if (data != NULL)
    g_ptr_array_unref (data);
}

/* An entry of a listing of STATE's (state-private.h): a state holds
 * thousands, allocated a block at a time. */
#define ENTRY_BLOCK 512

static KicFsListingEntry *
state_entry_new (KicState *state)
{
  if (state->block_left == 0)
    {
      state->block = g_new0 (KicFsListingEntry, ENTRY_BLOCK);
      g_ptr_array_add (state->owned, state->block);
      state->block_left = ENTRY_BLOCK;
    }
  state->block_left--;
  return state->block++;
}

/* A field of STATE's text as a string of the state's: in place, or its
 * escapes undone. */
static const char *
state_string (KicState *state, const char *f)
{
  char *s;

  if (strchr (f, '\\') == NULL)
    return f;
  s = g_strcompress (f);
  g_ptr_array_add (state->owned, s);
  return s;
}

void
kic_state_free (KicState *state)
{
  if (state == NULL)
    return;
  g_free (state->key);
  g_free (state->text);
  g_free (state->source);
  if (state->listing_text != NULL)
    g_hash_table_unref (state->listing_text);
  if (state->owned != NULL)
    g_ptr_array_unref (state->owned);
  if (state->dirs != NULL)
    g_hash_table_unref (state->dirs);
  if (state->unlisted != NULL)
    g_hash_table_unref (state->unlisted);
  if (state->desktop != NULL)
    g_hash_table_unref (state->desktop);
  if (state->store_stamps != NULL)
    g_hash_table_unref (state->store_stamps);
  kic_plan_memo_free (state->memo);
  g_free (state);
}

#define MAX_FIELDS 10

/* A field as a string (transfer full): its escapes undone. */
static char *
unescape (const char *f)
{
  return strchr (f, '\\') != NULL ? g_strcompress (f) : g_strdup (f);
}

/* Field I of F (N fields) as a string, or with OPT "-" (NULL, *OK kept)
 * or "=text"; *OK FALSE when it is not there. */
static char *
field (char **f, guint n, guint i, gboolean opt, gboolean *ok)
{
  if (i >= n)
    {
      *ok = FALSE;
      return NULL;
    }
  if (!opt)
    return unescape (f[i]);
  if (strcmp (f[i], "-") == 0)
    return NULL;
  if (f[i][0] != '=')
    {
      *ok = FALSE;
      return NULL;
    }
  return unescape (f[i] + 1);
}

static gboolean
field_uint (char **f, guint n, guint i, guint *value)
{
  char *end;
  guint64 v;

  if (i >= n || !g_ascii_isdigit (f[i][0]))
    return FALSE;
  v = g_ascii_strtoull (f[i], &end, 10);
  if (*end != '\0' || v > G_MAXUINT)
    return FALSE;
  *value = (guint) v;
  return TRUE;
}

/* Field I of F (N fields) as a 64-bit integer, signed or not. */
static gboolean
field_int64 (char **f, guint n, guint i, gboolean is_signed, gint64 *value)
{
  char *end;

  if (i >= n || !(g_ascii_isdigit (f[i][0]) || (is_signed && f[i][0] == '-' && g_ascii_isdigit (f[i][1]))))
    return FALSE;
  errno = 0;
  *value = is_signed ? g_ascii_strtoll (f[i], &end, 10) : (gint64) g_ascii_strtoull (f[i], &end, 10);
  return *end == '\0' && errno == 0;
}

static gboolean
is_01 (char **f, guint n, guint i)
{
  return i < n && (strcmp (f[i], "0") == 0 || strcmp (f[i], "1") == 0);
}

/* Is PATH a clean absolute path? */
static gboolean
path_ok (const char *path)
{
  return path != NULL && kic_path_is_clean (path) && kic_manifest_path_ok (path);
}

/* An E (a file, directory or other entry) or L (a link) record of the
 * listing DIR. */
static gboolean
parse_entry (KicState *state, char **f, guint n, GPtrArray *dir)
{
  gboolean link = f[0][0] == 'L';
  gboolean ok = TRUE;
  KicFsListingEntry *e;

  if (dir == NULL || n != (link ? 4u : 3u) || (!link && (strlen (f[1]) != 1 || strchr ("fdlo", f[1][0]) == NULL)))
    return FALSE;
  /* (the strings are the state's: casts from const, never freed
   * through the entry) */
  e = state_entry_new (state);
  g_ptr_array_add (dir, e);
  e->name = (char *) state_string (state, f[link ? 1 : 2]);
  e->kind = link ? 'l' : f[1][0];
  if (link)
    {
      e->target = (char *) state_string (state, f[2]);
      if (strcmp (f[3], "-") != 0)
        {
          ok = f[3][0] == '=';
          e->real = (char *) state_string (state, f[3] + 1);
        }
      ok = ok && path_ok (e->target) && (e->real == NULL || path_ok (e->real));
    }
  /* sorted and unique, as written */
  return ok && e->name[0] != '\0' && strchr (e->name, '/') == NULL
         && (dir->len == 1 || strcmp (((KicFsListingEntry *) g_ptr_array_index (dir, dir->len - 2))->name, e->name) < 0);
}

/* A D record: a directory, and *DIR its listing when the state keeps one. */
static gboolean
parse_dir (KicState *state, char **f, guint n, GPtrArray **dir)
{
  gboolean ok = TRUE;
  g_autofree char *path = field (f, n, 1, FALSE, &ok);

  guint64 names = 0;

  /* 2: past the bound; 3: the budget spent, with how many names it held
   * when there were any read (state-private.h) */
  if (ok && path_ok (path)
      && ((n == 3 && (strcmp (f[2], "2") == 0 || strcmp (f[2], "3") == 0))
          || (n == 4 && strcmp (f[2], "3") == 0 && g_ascii_string_to_unsigned (f[3], 10, 0, 1u << 20, &names, NULL))))
    {
      *dir = NULL;
      state->spent = state->spent || f[2][0] == '3';
      g_hash_table_insert (state->unlisted, g_steal_pointer (&path),
                           GINT_TO_POINTER (n == 4 ? 4 + (int) names : f[2][0] - '0'));
      return TRUE;
    }
  if (!ok || n != 3 || !path_ok (path) || !is_01 (f, n, 2) || g_hash_table_contains (state->dirs, path))
    return FALSE;
  *dir = f[2][0] == '1' ? g_ptr_array_new () : NULL; /* entries: the state's */
  g_hash_table_insert (state->dirs, g_steal_pointer (&path), *dir);
  return TRUE;
}

/* An F record: a store copy's stamp. */
static gboolean
parse_store_stamp (KicState *state, char **f, guint n)
{
  gboolean ok = TRUE;
  g_autofree char *path = field (f, n, 1, FALSE, &ok);
  KicFsStamp *st;
  gint64 dev = 0, ino = 0;

  if (!ok || n != 8 || !path_ok (path) || g_hash_table_contains (state->store_stamps, path))
    return FALSE;
  st = g_new0 (KicFsStamp, 1);
  st->type = KIC_FS_FILE;
  st->exists = TRUE;
  g_hash_table_insert (state->store_stamps, g_steal_pointer (&path), st);
  ok = field_int64 (f, n, 2, FALSE, &dev) && field_int64 (f, n, 3, FALSE, &ino)
       && field_int64 (f, n, 4, TRUE, &st->size) && field_int64 (f, n, 5, TRUE, &st->mtime_ns)
       && field_int64 (f, n, 6, TRUE, &st->ctime_ns) && field_int64 (f, n, 7, TRUE, &st->read_ns);
  st->dev = (guint64) dev;
  st->ino = (guint64) ino;
  return ok;
}

/* An M record: what a menu file said when it was read. */
static gboolean
parse_menu_file (KicState *state, char **f, guint n)
{
  gboolean ok = TRUE;
  g_autofree char *path = field (f, n, 1, FALSE, &ok);
  KicDesktopRead *read;

  if (!ok || n != 4 || !path_ok (path) || !is_01 (f, n, 2) || g_hash_table_contains (state->desktop, path))
    return FALSE;
  read = g_new0 (KicDesktopRead, 1);
  read->hidden = f[2][0] == '1';
  read->icon = field (f, n, 3, TRUE, &ok);
  g_hash_table_insert (state->desktop, g_steal_pointer (&path), read);
  return ok;
}

/* The owner of the closure member NP: a menu name (n) or another member
 * (c), which may come after it and is resolved at the end. */
static gboolean
parse_closure_owner (KicNamePlan *np, char **f, guint n, GHashTable *menu, GArray *owners, GPtrArray *pending)
{
  guint owner = 0;

  if (strcmp (f[7], "n") == 0)
    {
      g_autofree char *owner_name = unescape (f[8]);

      np->closure_for = g_hash_table_lookup (menu, owner_name);
      return np->closure_for != NULL;
    }
  if (strcmp (f[7], "c") != 0 || !field_uint (f, n, 8, &owner))
    return FALSE;
  g_array_append_val (owners, owner);
  g_ptr_array_add (pending, np);
  return TRUE;
}

/* An N (a menu name's plan) or C (a closure member's) record; *LAST is
 * the plan the records after it add to. */
static gboolean
parse_name (KicState *state, char **f, guint n, KicNamePlan **last, GHashTable *menu, GArray *owners,
            GPtrArray *pending)
{
  gboolean menu_name = f[0][0] == 'N';
  gboolean ok = TRUE;
  g_autofree char *name = field (f, n, 1, FALSE, &ok);
  g_autofree char *status = field (f, n, 2, FALSE, &ok);
  KicNamePlan *np;

  if (!ok)
    return FALSE;
  np = kic_name_plan_new (name);
  *last = np;
  g_ptr_array_add (menu_name ? state->memo->names : state->memo->closure, np);
  np->reason = field (f, n, 3, TRUE, &ok);
  np->ban_reason = field (f, n, 5, TRUE, &ok);
  if (!ok || !kic_name_status_from_string (status, &np->status) || !is_01 (f, n, 4))
    return FALSE;
  np->per_size = f[4][0] == '1';
  if (menu_name)
    {
      if (n != 6 || g_hash_table_contains (menu, np->name))
        return FALSE;
      g_hash_table_insert (menu, np->name, np);
      return TRUE;
    }
  np->closure_theme = field (f, n, 6, FALSE, &ok);
  return ok && n == 9 && parse_closure_owner (np, f, n, menu, owners, pending);
}

/* A P record: a link of the plan NP. */
static gboolean
parse_plant (KicNamePlan *np, char **f, guint n)
{
  KicPlant *plant;

  if (n != 5)
    return FALSE;
  plant = g_new0 (KicPlant, 1);
  g_ptr_array_add (np->plants, plant);
  plant->link = unescape (f[1]);
  plant->source = unescape (f[2]);
  plant->store = unescape (f[3]);
  plant->theme = unescape (f[4]);
  return path_ok (plant->link) && path_ok (plant->source) && path_ok (plant->store);
}

/* An S record: the plan NP's report at one size. */
static gboolean
parse_size_report (KicNamePlan *np, char **f, guint n)
{
  gboolean ok = TRUE;
  KicSizeReport *r;
  guint size = 0;

  if (n != 7)
    return FALSE;
  r = g_new0 (KicSizeReport, 1);
  g_ptr_array_add (np->sizes, r);
  r->path = field (f, n, 2, TRUE, &ok);
  r->floor_reason = field (f, n, 6, TRUE, &ok);
  ok = ok && field_uint (f, n, 1, &size) && field_uint (f, n, 3, &r->calls_before)
       && field_uint (f, n, 4, &r->calls_after) && field_uint (f, n, 5, &r->calls_floor);
  r->size = (int) size;
  return ok;
}

/* A V record: a name the proof verified, and how often. */
static gboolean
parse_verified (KicState *state, char **f, guint n)
{
  g_autofree char *name = NULL;
  guint count = 0;

  if (n != 3 || !field_uint (f, n, 2, &count))
    return FALSE;
  name = unescape (f[1]);
  if (g_hash_table_contains (state->memo->verified, name))
    return FALSE;
  g_hash_table_insert (state->memo->verified, g_steal_pointer (&name), GUINT_TO_POINTER (count));
  return TRUE;
}

/* One record of the text, its N fields in F, into STATE.  FALSE when it is
 * not what a state holds.  *DIR is the listing E and L records add to (a
 * D record starts one, any other record ends it); *LAST the plan B, P and
 * S records add to (an N or C record starts one; D, F, M and V end it). */
static gboolean
parse_record (KicState *state, char **f, guint n, GPtrArray **dir, KicNamePlan **last, GHashTable *menu,
              GArray *owners, GPtrArray *pending)
{
  const char *tag = f[0];

  if (strcmp (tag, "E") == 0 || strcmp (tag, "L") == 0)
    return parse_entry (state, f, n, *dir);
  if (strcmp (tag, "D") == 0)
    {
      *last = NULL;
      return parse_dir (state, f, n, dir);
    }
  *dir = NULL;
  if (strcmp (tag, "N") == 0 || strcmp (tag, "C") == 0)
    return parse_name (state, f, n, last, menu, owners, pending);
  if (strcmp (tag, "B") == 0)
    {
      if (*last == NULL || n != 2)
        return FALSE;
      g_ptr_array_add ((*last)->banned, unescape (f[1]));
      return TRUE;
    }
  if (strcmp (tag, "P") == 0)
    return *last != NULL && parse_plant (*last, f, n);
  if (strcmp (tag, "S") == 0)
    return *last != NULL && parse_size_report (*last, f, n);
  *last = NULL;
  if (strcmp (tag, "F") == 0)
    return parse_store_stamp (state, f, n);
  if (strcmp (tag, "M") == 0)
    return parse_menu_file (state, f, n);
  if (strcmp (tag, "V") == 0)
    return parse_verified (state, f, n);
  return FALSE;
}

const char *
state_listing_text (const KicState *state, const GPtrArray *listing, gsize *length)
{
  const ListingText *lt = state->listing_text != NULL ? g_hash_table_lookup (state->listing_text, listing) : NULL;

  if (lt == NULL)
    return NULL;
  *length = lt->length;
  return state->source + lt->offset;
}

/* The lines of LISTING end at OFFSET of the text: where they are. */
static void
close_listing (KicState *state, GPtrArray **listing, gsize start, gsize offset)
{
  ListingText *lt;

  if (*listing == NULL)
    return;
  lt = g_new (ListingText, 1);
  lt->offset = start;
  lt->length = offset - start;
  g_hash_table_insert (state->listing_text, *listing, lt);
  *listing = NULL;
}

/* The records of TEXT (BODY up to END, a copy it may cut up, which
 * begins at BASE) into STATE. */
static gboolean
parse_records (KicState *state, const char *base, char *body, const char *end, char **why)
{
  GPtrArray *listing = NULL; /* the listing whose lines are being read */
  gsize listing_start = 0;
  g_autoptr (GHashTable) menu = g_hash_table_new (kic_str_hash, g_str_equal);
  g_autoptr (GArray) owners = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) pending = g_ptr_array_new ();
  GPtrArray *dir = NULL;
  KicNamePlan *last = NULL;
  guint line = 4;

  while (body < end)
    {
      char *nl = memchr (body, '\n', end - body);
      char *f[MAX_FIELDS];
      guint n = 0;

      line++;
      if (nl == NULL)
        break;
      *nl = '\0';
      f[n++] = body;
      for (char *t = strchr (body, '\t'); t != NULL && n < MAX_FIELDS; t = strchr (t + 1, '\t'))
        {
          *t = '\0';
          f[n++] = t + 1;
        }
      if (!((f[0][0] == 'E' || f[0][0] == 'L') && f[0][1] == '\0'))
        close_listing (state, &listing, listing_start, body - base);
      if (strchr (f[n - 1], '\t') != NULL || !parse_record (state, f, n, &dir, &last, menu, owners, pending))
        {
          *why = g_strdup_printf ("line %u is not what a state holds", line);
          return FALSE;
        }
      if (f[0][0] == 'D' && dir != NULL)
        {
          listing = dir;
          listing_start = body - base;
        }
      body = nl + 1;
    }
  close_listing (state, &listing, listing_start, body - base);
  for (guint k = 0; k < pending->len; k++)
    {
      KicNamePlan *np = g_ptr_array_index (pending, k);
      guint owner = g_array_index (owners, guint, k);

      if (owner >= state->memo->closure->len || g_ptr_array_index (state->memo->closure, owner) == np)
        {
          *why = g_strdup ("a closure member of no name");
          return FALSE;
        }
      np->closure_for = g_ptr_array_index (state->memo->closure, owner);
    }
  return TRUE;
}

KicState *
kic_state_read (char *text, gsize length, const char *inputs)
{
  g_autofree char *source = text;
  g_autofree char *why = NULL;
  g_autofree char *copy = NULL;
  KicState *state = NULL;
  const char *end;
  char *lines[4];
  char *body;

  if (text == NULL || inputs == NULL)
    return NULL;
  /* whole: "end<tab>CHECKSUM<newline>" last, of all before it */
  end = length >= 21 ? text + length - 21 : NULL;
  if (end == NULL || memchr (text, '\0', length) != NULL || (end > text && end[-1] != '\n')
      || strncmp (end, "end\t", 4) != 0 || text[length - 1] != '\n')
    why = g_strdup ("cut short or not a state");
  else
    {
      g_autofree char *sum = kic_checksum64 (text, end - text);

      if (strncmp (end + 4, sum, 16) != 0)
        why = g_strdup ("its checksum does not match");
    }
  if (why == NULL)
    {
      copy = g_strndup (text, end - text);
      body = copy;
      for (guint i = 0; i < 4; i++)
        {
          char *nl = strchr (body, '\n');

          lines[i] = body;
          if (nl == NULL)
            {
              why = g_strdup ("cut short or not a state");
              break;
            }
          *nl = '\0';
          body = nl + 1;
        }
    }
  if (why == NULL)
    {
      if (strcmp (lines[0], KIC_STATE_HEADER) != 0)
        why = g_strdup ("another version");
      else if (!g_str_has_prefix (lines[1], "inputs\t") || strcmp (lines[1] + 7, inputs) != 0)
        why = g_strdup ("not bound to the manifest");
      else if (!g_str_has_prefix (lines[2], "key\t") || strlen (lines[2]) != 4 + 64)
        why = g_strdup ("line 3 is not what a state holds");
      else if (strcmp (lines[3], "floor\t0") != 0 && strcmp (lines[3], "floor\t1") != 0
               && strcmp (lines[3], "floor\t-") != 0)
        why = g_strdup ("line 4 is not what a state holds");
      else
        {
          state = g_new0 (KicState, 1);
          state->owned = g_ptr_array_new_with_free_func (g_free);
          state->listing_text = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
          state->key = g_strdup (lines[2] + 4);
          state->floor = lines[3][6] == '1';
          state->dirs = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, listing_free);
          state->unlisted = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
          state->desktop = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, kic_desktop_read_free);
          state->store_stamps = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, g_free);
          state->memo = g_new0 (KicPlanMemo, 1);
          state->memo->names = g_ptr_array_new_with_free_func (kic_name_plan_free);
          state->memo->closure = g_ptr_array_new_with_free_func (kic_name_plan_free);
          state->memo->verified = g_hash_table_new_full (kic_str_hash, g_str_equal, g_free, NULL);
          state->memo->floor = state->floor;
          state->memo->reports = lines[3][6] != '-';
          if (parse_records (state, copy, body, copy + (end - text), &why))
            {
              state->text = g_steal_pointer (&copy);
              state->source = g_steal_pointer (&source);
            }
          else
            g_clear_pointer (&state, kic_state_free);
        }
    }
  if (why != NULL)
    kic_debug ("state: ignored (%s): planning every name", why);
  return state;
}

KicState *
kic_state_load (const char *root, const char *path, const char *inputs)
{
  gsize length = 0;
  int rootfd = kic_root_open (root);
  /* (its type known before it is opened, as the fingerprint's and the
   * manifest's: never a device node, safeopen.h) */
  char *text = rootfd >= 0 ? kic_read_regular_in_root (rootfd, path, 256 << 20, &length) : NULL;

  if (rootfd >= 0)
    close (rootfd);
  return text != NULL ? kic_state_read (text, length, inputs) : NULL;
}

struct _KicStateLoad {
  char *root;
  char *path;
  char *inputs;
  GThread *thread; /* NULL: none could be had */
};

static gpointer
state_load_thread (gpointer data)
{
  KicStateLoad *load = data;

  return kic_state_load (load->root, load->path, load->inputs);
}

KicStateLoad *
kic_state_load_start (const char *root, const char *path, const char *inputs)
{
  KicStateLoad *load = g_new0 (KicStateLoad, 1);

  load->root = g_strdup (root);
  load->path = g_strdup (path);
  load->inputs = g_strdup (inputs);
  load->thread = g_thread_try_new ("kic-state", state_load_thread, load, NULL);
  return load;
}

KicState *
kic_state_load_finish (KicStateLoad *load)
{
  KicState *state = load->thread != NULL ? g_thread_join (load->thread)
                                         : kic_state_load (load->root, load->path, load->inputs);

  g_free (load->root);
  g_free (load->path);
  g_free (load->inputs);
  g_free (load);
  return state;
}
