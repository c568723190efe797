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

static int walk_tree(TSTree *tree, pp_node **out, int32_t *count);

int pp_flatten(TSParser *p, const char *src, uint32_t len, pp_node **out,
               int32_t *count) {
  TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
  if (!tree) {
    ts_parser_reset(p);
    return -1;
  }
  int rc = walk_tree(tree, out, count);
  ts_tree_delete(tree);
  return rc;
}

int pp_reparse(TSParser *p, TSTree *old, const char *src, uint32_t len,
               pp_node **out, int32_t *count, TSTree **tree_out) {
  TSTree *tree = ts_parser_parse_string(p, old, src, len);
  if (!tree) {
    ts_parser_reset(p);
    return -1;
  }
  int rc = walk_tree(tree, out, count);
  if (rc) {
    ts_tree_delete(tree);
    return rc;
  }
  *tree_out = tree;
  return 0;
}

static int walk_tree(TSTree *tree, pp_node **out, int32_t *count) {
  flat f = {0};
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  int rc = emit(&f, &c);
  while (rc == 0) {
    if (ts_tree_cursor_goto_first_child(&c)) {
      rc = emit(&f, &c);
      continue;
    }
    // Leaf: close it and every ancestor that has no further sibling.
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
