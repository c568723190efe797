// The subset of the tree-sitter C API that pallas-ls calls directly.
//
// The declarations are written here, not included, because cgo cannot point
// an include path into the module cache; the symbols themselves come from the
// C library compiled by github.com/tree-sitter/go-tree-sitter, which this
// package imports. The struct layouts must match tree_sitter/api.h of
// go-tree-sitter v0.25.0; TestShimLayout checks them against that binding.
#ifndef PALLAS_PYPARSE_SHIM_H
#define PALLAS_PYPARSE_SHIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct {
  uint32_t context[4];
  const void *id;
  const TSTree *tree;
} TSNode;
typedef struct {
  const void *tree;
  const void *id;
  uint32_t context[3];
} TSTreeCursor;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree,
                               const char *string, uint32_t length);
typedef struct {
  uint32_t row;
  uint32_t column;
} TSPoint;
typedef struct {
  uint32_t start_byte;
  uint32_t old_end_byte;
  uint32_t new_end_byte;
  TSPoint start_point;
  TSPoint old_end_point;
  TSPoint new_end_point;
} TSInputEdit;
void ts_tree_edit(TSTree *self, const TSInputEdit *edit);
typedef struct {
  TSPoint start_point;
  TSPoint end_point;
  uint32_t start_byte;
  uint32_t end_byte;
} TSRange;
TSRange *ts_tree_get_changed_ranges(const TSTree *old_tree,
                                    const TSTree *new_tree, uint32_t *length);
void ts_parser_reset(TSParser *self);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_extra(TSNode self);
bool ts_node_is_error(TSNode self);
bool ts_node_has_error(TSNode self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
TSSymbol ts_language_symbol_for_name(const TSLanguage *self, const char *string,
                                     uint32_t length, bool is_named);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
uint32_t ts_language_field_count(const TSLanguage *self);
const char *ts_language_field_name_for_id(const TSLanguage *self, TSFieldId id);
void ts_set_allocator(void *(*new_malloc)(size_t),
                      void *(*new_calloc)(size_t, size_t),
                      void *(*new_realloc)(void *, size_t),
                      void (*new_free)(void *));

// One node of the flattened tree, in preorder. next is the index just past
// the node's subtree: its next sibling, or where its parent's next sibling
// starts.
typedef struct {
  uint32_t start, end;
  int32_t parent, next;
  uint16_t symbol, field;
  uint8_t flags;
} pp_node;

enum {
  PP_NAMED = 1,
  PP_MISSING = 2,
  PP_ERROR = 4,
  PP_EXTRA = 8,
};

// pp_flatten parses src with a fresh parser for lang and writes its tree
// in preorder into a malloc'd array (*out, *count). It returns 0 on
// success, -1 when parsing failed and -2 when memory ran out. Every
// tree-sitter allocation of the call comes from a per-thread arena that is
// dropped before returning (shim.c).
int pp_flatten(const TSLanguage *lang, const char *src, uint32_t len,
               pp_node **out, int32_t *count);
// pp_flatten_pooled is pp_flatten with a reused parser and libc's
// allocator throughout (no arena): the reference floor of benchmarks.
int pp_flatten_pooled(TSParser *p, const char *src, uint32_t len,
                      pp_node **out, int32_t *count);
// pp_set_arena_cap bounds one parse's arena (tests: the spill path).
void pp_set_arena_cap(size_t cap);

// pp_reparse parses src reusing old (already edited with edit by
// ts_tree_edit; may be NULL), flattens the result like pp_flatten, and
// returns the new tree in *tree_out instead of deleting it. old is not
// deleted. Given the flat tree of the version old was parsed from
// (old_nodes, old_count; may be NULL), a subtree that lies wholly before or
// after the edit and in none of the ranges tree-sitter reports changed is
// copied from old_nodes (shifted) instead of walked, so a small edit costs
// little more than the path down to it. A result with syntax errors is
// parsed again from scratch: error recovery started from the old tree may
// wrap other regions in ERROR nodes than a fresh parse does.
int pp_reparse(TSParser *p, TSTree *old, const char *src, uint32_t len,
               const pp_node *old_nodes, int32_t old_count,
               const TSInputEdit *edit, pp_node **out, int32_t *count,
               TSTree **tree_out);
void pp_use_libc_allocator(void);

#endif
