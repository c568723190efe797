#include "shim.h"

void pp_use_libc_allocator(void) {
  // go-tree-sitter routes every allocation through Go callbacks (C -> Go ->
  // C); libc's allocator directly removes that round trip from each node.
  ts_set_allocator(malloc, calloc, realloc, free);
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

int pp_flatten(TSParser *p, const char *src, uint32_t len, pp_node **out,
               int32_t *count) {
  TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
  if (!tree) {
    ts_parser_reset(p);
    return -1;
  }
  int rc = walk_tree(tree, NULL, out, count);
  ts_tree_delete(tree);
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
