#include "shim.h"

#include <string.h>

// The allocator. go-tree-sitter routes every allocation through Go
// callbacks (C -> Go -> C); calling libc directly removes that round trip
// from each node. A one-shot parse (pp_flatten) goes further: everything
// tree-sitter allocates during it (a fresh parser, the tree, the cursor)
// comes from a per-thread bump arena, and nothing is freed one by one: the
// arena is dropped at the end, which saves malloc, free and the walk that
// deletes the tree. (The parser is still deleted: a grammar's external
// scanner allocates its state with libc directly.) A parse whose arena
// would pass arena_cap takes the rest from libc ("spills") and is then
// deleted the usual way; frees of arena blocks are skipped. Outside a
// one-shot parse (the editor's incremental trees, which outlive the call)
// the arena is off and every call goes to libc.

typedef struct pp_chunk {
  struct pp_chunk *prev;
  size_t cap, used;
  size_t pad; // keeps the data 16-byte aligned
} pp_chunk;

typedef struct {
  pp_chunk *cur;
  size_t total; // bytes in chunks
  int on;       // inside a one-shot parse on this thread
  int spilled;  // a request went to libc: delete the tree the usual way
} pp_arena;

static _Thread_local pp_arena arena;

enum { HDR = 16 }; // each block starts with its size, then padding
#define ARENA_CHUNK ((size_t)1 << 20)
// What a thread keeps between parses: one base chunk. The Go runtime may
// run parses on many threads (GOMAXPROCS and more), so a bigger reserve
// would add up on a large machine.
#define ARENA_KEEP ARENA_CHUNK
static size_t arena_cap = (size_t)512 << 20;

void pp_set_arena_cap(size_t cap) { arena_cap = cap; }

static void *arena_alloc(size_t n) {
  if (n > arena_cap) return NULL;
  size_t need = HDR + ((n + 15) & ~(size_t)15);
  pp_chunk *c = arena.cur;
  if (!c || c->cap - c->used < need) {
    size_t cap = arena.total < ARENA_CHUNK ? ARENA_CHUNK : arena.total;
    if (cap < need) cap = need;
    if (arena.total + cap > arena_cap) return NULL;
    pp_chunk *nc = malloc(sizeof(pp_chunk) + cap);
    if (!nc) return NULL;
    nc->prev = c;
    nc->cap = cap;
    nc->used = 0;
    arena.cur = nc;
    arena.total += cap;
    c = nc;
  }
  char *p = (char *)(c + 1) + c->used;
  c->used += need;
  *(size_t *)p = n;
  return p + HDR;
}

static int in_arena(const void *p) {
  for (pp_chunk *c = arena.cur; c; c = c->prev) {
    const char *data = (const char *)(c + 1);
    if ((const char *)p >= data && (const char *)p < data + c->used) return 1;
  }
  return 0;
}

static void arena_reset(void) {
  pp_chunk *keep = NULL;
  for (pp_chunk *c = arena.cur; c;) {
    pp_chunk *prev = c->prev;
    if (!keep && c->cap <= ARENA_KEEP) {
      keep = c;
    } else {
      free(c);
    }
    c = prev;
  }
  arena.total = 0;
  if (keep) {
    keep->prev = NULL;
    keep->used = 0;
    arena.total = keep->cap;
  }
  arena.cur = keep;
}

static void *pp_malloc(size_t n) {
  if (arena.on) {
    void *p = arena_alloc(n);
    if (p) return p;
    arena.spilled = 1;
  }
  return malloc(n);
}

static void *pp_calloc(size_t k, size_t n) {
  if (arena.on) {
    if (n && k > SIZE_MAX / n) return NULL;
    void *p = arena_alloc(k * n);
    if (p) return memset(p, 0, k * n);
    arena.spilled = 1;
  }
  return calloc(k, n);
}

static void *pp_realloc(void *p, size_t n) {
  if (arena.on && (!p || in_arena(p))) {
    if (!p) return pp_malloc(n);
    size_t old = *(size_t *)((char *)p - HDR);
    if (n <= old) return p;
    // The newest block of the current chunk grows in place.
    pp_chunk *c = arena.cur;
    size_t old_need = HDR + ((old + 15) & ~(size_t)15);
    size_t new_need = HDR + ((n + 15) & ~(size_t)15);
    if ((char *)p > (char *)(c + 1) && (char *)p - HDR + old_need == (char *)(c + 1) + c->used &&
        c->cap - c->used >= new_need - old_need) {
      c->used += new_need - old_need;
      *(size_t *)((char *)p - HDR) = n;
      return p;
    }
    void *q = pp_malloc(n);
    if (q) memcpy(q, p, old);
    return q;
  }
  return realloc(p, n);
}

static void pp_free(void *p) {
  if (arena.on && p && in_arena(p)) return;
  free(p);
}

void pp_use_libc_allocator(void) {
  ts_set_allocator(pp_malloc, pp_calloc, pp_realloc, pp_free);
}

typedef struct {
  pp_node *nodes;
  int32_t len, cap;
  int32_t *stack; // indices of the open ancestors
  int32_t depth, stack_cap;
} flat;

static int grow(void **buf, int32_t *cap, size_t elem) {
  int32_t ncap = *cap ? *cap * 2 : 1024;
  void *nb = realloc(*buf, (size_t)ncap * elem);
  if (!nb) return -1;
  *buf = nb;
  *cap = ncap;
  return 0;
}

static int emit(flat *f, TSTreeCursor *c) {
  if (f->len == f->cap && grow((void **)&f->nodes, &f->cap, sizeof(pp_node)))
    return -2;
  TSNode n = ts_tree_cursor_current_node(c);
  pp_node *o = &f->nodes[f->len];
  o->start = ts_node_start_byte(n);
  o->end = ts_node_end_byte(n);
  o->parent = f->depth ? f->stack[f->depth - 1] : -1;
  o->next = -1;
  o->symbol = ts_node_symbol(n);
  o->field = ts_tree_cursor_current_field_id(c);
  o->flags = (ts_node_is_named(n) ? PP_NAMED : 0) |
             (ts_node_is_missing(n) ? PP_MISSING : 0) |
             (ts_node_is_error(n) ? PP_ERROR : 0) |
             (ts_node_is_extra(n) ? PP_EXTRA : 0);
  if (f->depth == f->stack_cap &&
      grow((void **)&f->stack, &f->stack_cap, sizeof(int32_t)))
    return -2;
  f->stack[f->depth++] = f->len++;
  return 0;
}

// close_node finishes the innermost open node: its subtree ends here.
static void close_node(flat *f) {
  f->nodes[f->stack[--f->depth]].next = f->len;
}

typedef struct reuse reuse;
static int walk_tree(TSTree *tree, const reuse *r, pp_node **out, int32_t *count);

int pp_flatten_pooled(TSParser *p, const char *src, uint32_t len,
                      pp_node **out, int32_t *count) {
  TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
  if (!tree) {
    ts_parser_reset(p);
    return -1;
  }
  int rc = walk_tree(tree, NULL, out, count);
  ts_tree_delete(tree);
  return rc;
}

int pp_flatten(const TSLanguage *lang, const char *src, uint32_t len,
               pp_node **out, int32_t *count) {
  arena.on = 1;
  arena.spilled = 0;
  int rc = -1;
  TSParser *p = ts_parser_new();
  TSTree *tree = NULL;
  if (ts_parser_set_language(p, lang)) {
    tree = ts_parser_parse_string(p, NULL, src, len);
    if (tree) rc = walk_tree(tree, NULL, out, count);
  }
  // Some blocks of the tree came from libc: free them (arena blocks are
  // skipped). The parser is always deleted: the grammar's external scanner
  // keeps its state in libc memory of its own.
  if (arena.spilled && tree) ts_tree_delete(tree);
  ts_parser_delete(p);
  arena.on = 0;
  arena_reset();
  return rc;
}

static int copy_subtree(flat *f, const reuse *r, TSNode n);

// walk_tree flattens tree in preorder; with r, subtrees the edit left
// alone are copied from the previous version (copy_subtree).
static int walk_tree(TSTree *tree, const reuse *r, pp_node **out, int32_t *count) {
  flat f = {0};
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  int rc = emit(&f, &c);
  while (rc == 0) {
    int copied = r ? copy_subtree(&f, r, ts_tree_cursor_current_node(&c)) : 0;
    if (copied < 0) {
      rc = copied;
      break;
    }
    if (!copied && ts_tree_cursor_goto_first_child(&c)) {
      rc = emit(&f, &c);
      continue;
    }
    // Leaf (or copied): close it and every ancestor that has no further
    // sibling.
    for (;;) {
      close_node(&f);
      if (ts_tree_cursor_goto_next_sibling(&c)) {
        rc = emit(&f, &c);
        break;
      }
      if (!ts_tree_cursor_goto_parent(&c)) {
        while (f.depth) close_node(&f);
        goto done;
      }
    }
  }
done:
  ts_tree_cursor_delete(&c);
  free(f.stack);
  if (rc) {
    free(f.nodes);
    return rc;
  }
  *out = f.nodes;
  *count = f.len;
  return 0;
}

// reuse describes what pp_reparse may copy from the old flat tree.
struct reuse {
  const pp_node *nodes;
  int32_t count;
  uint32_t edit_start, edit_new_end;
  int64_t delta; // new_end - old_end
  const TSRange *changed;
  uint32_t nchanged;
};

// copy_subtree appends, under the node just emitted (the current cursor
// node n), the descendants of its counterpart in the old flat tree, and
// reports whether it did. The counterpart must be unambiguous: the only
// old node with n's span (mapped back across the edit), symbol and flags.
static int copy_subtree(flat *f, const reuse *r, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (e <= s) return 0;
  int64_t shift;
  if (e < r->edit_start) {
    shift = 0;
  } else if (s > r->edit_new_end) {
    shift = r->delta;
  } else {
    return 0;
  }
  for (uint32_t i = 0; i < r->nchanged; i++) {
    if (s <= r->changed[i].end_byte && r->changed[i].start_byte <= e) return 0;
  }
  int64_t os = (int64_t)s - shift, oe = (int64_t)e - shift;
  // Preorder starts never decrease: find the first old node at os.
  int32_t lo = 0, hi = r->count;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if ((int64_t)r->nodes[mid].start < os) lo = mid + 1; else hi = mid;
  }
  const pp_node *root = &f->nodes[f->len - 1];
  int32_t found = -1;
  for (int32_t i = lo; i < r->count && (int64_t)r->nodes[i].start == os; i++) {
    const pp_node *o = &r->nodes[i];
    if ((int64_t)o->end == oe && o->symbol == root->symbol && o->flags == root->flags) {
      if (found >= 0) return 0; // ambiguous
      found = i;
    }
  }
  if (found < 0) return 0;
  int32_t end = r->nodes[found].next, n_desc = end - found - 1;
  if (n_desc <= 0 || end > r->count) return 0;
  while (f->len + n_desc > f->cap) {
    if (grow((void **)&f->nodes, &f->cap, sizeof(pp_node))) return -2;
  }
  int32_t at = f->len - 1; // the root's new index
  for (int32_t k = found + 1; k < end; k++) {
    pp_node o = r->nodes[k];
    o.start = (uint32_t)((int64_t)o.start + shift);
    o.end = (uint32_t)((int64_t)o.end + shift);
    o.parent = at + (o.parent - found);
    o.next = at + (o.next - found);
    f->nodes[f->len++] = o;
  }
  return 1;
}

int pp_reparse(TSParser *p, TSTree *old, const char *src, uint32_t len,
               const pp_node *old_nodes, int32_t old_count,
               const TSInputEdit *edit, pp_node **out, int32_t *count,
               TSTree **tree_out) {
  TSTree *tree = ts_parser_parse_string(p, old, src, len);
  if (!tree) {
    ts_parser_reset(p);
    return -1;
  }
  if (old && ts_node_has_error(ts_tree_root_node(tree))) {
    // Error recovery may wrap other regions in ERROR nodes when it starts
    // from the old tree than when it starts from nothing; a tree with
    // errors is parsed again from scratch, so that it is the tree a fresh
    // parse gives.
    ts_tree_delete(tree);
    old = NULL;
    tree = ts_parser_parse_string(p, NULL, src, len);
    if (!tree) {
      ts_parser_reset(p);
      return -1;
    }
  }
  TSRange *changed = NULL;
  reuse r = {0};
  if (old && old_nodes && old_count > 0) {
    r = (reuse){old_nodes, old_count, edit->start_byte, edit->new_end_byte,
                (int64_t)edit->new_end_byte - (int64_t)edit->old_end_byte, NULL, 0};
    changed = ts_tree_get_changed_ranges(old, tree, &r.nchanged);
    r.changed = changed;
  }
  int rc = walk_tree(tree, r.nodes ? &r : NULL, out, count);
  free(changed);
  if (rc) {
    ts_tree_delete(tree);
    return rc;
  }
  *tree_out = tree;
  return 0;
}
