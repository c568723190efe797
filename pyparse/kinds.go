package pyparse

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// Kind is a node type of the Python grammar (a tree-sitter symbol).
type Kind uint16

// Field is a grammar field name by which a parent refers to a child.
type Field uint16

var (
	kindNames  []string
	fieldNames []string
	namedKinds = map[string]Kind{}
	anonKinds  = map[string]Kind{}
	fieldIDs   = map[string]Field{}
)

// The node kinds and fields the analysis uses. Resolved from the grammar's
// own tables at init, so a grammar upgrade cannot silently renumber them.
var (
	KindModule, KindComment, KindIdentifier, KindAttribute, KindCall         Kind
	KindArgumentList, KindKeywordArgument, KindString, KindInteger           Kind
	KindFunctionDef, KindClassDef, KindDecoratedDef, KindDecorator           Kind
	KindAssignment, KindAugAssignment, KindExpressionStatement, KindBlock    Kind
	KindImport, KindImportFrom, KindAliasedImport, KindDottedName            Kind
	KindRelativeImport, KindImportPrefix, KindWildcardImport, KindLambda     Kind
	KindReturn, KindIf, KindElif, KindElse, KindWith, KindWithItem           Kind
	KindFor, KindWhile, KindTry, KindTuple, KindList, KindDictionary         Kind
	KindPair, KindTrue, KindFalse, KindNone, KindComparison, KindNot         Kind
	KindBoolean, KindParenthesized, KindSubscript, KindParameters            Kind
	KindDefaultParameter, KindTypedParameter, KindTypedDefaultParameter      Kind
	KindListSplat, KindDictSplat, KindListSplatPattern, KindDictSplatPattern Kind
	KindGlobal, KindNonlocal, KindPatternList, KindTuplePattern, KindError   Kind
	KindSet, KindBinaryOperator, KindUnaryOperator, KindConditionalExpr      Kind
	KindFloat, KindConcatenatedString, KindStringContent, KindPass           Kind
	KindAsPattern, KindNamedExpression, KindKeywordSeparator                 Kind
	KindExpressionList, KindListPattern, KindMatch, KindRaise                Kind
)

var (
	FieldFunction, FieldArguments, FieldName, FieldValue, FieldLeft Field
	FieldRight, FieldBody, FieldObject, FieldAttribute, FieldParams Field
	FieldCondition, FieldConsequence, FieldAlternative, FieldAlias  Field
	FieldModuleName, FieldDefinition, FieldSuperclasses, FieldType  Field
	FieldOperators, FieldOperator, FieldSubscript, FieldReturnType  Field
	FieldKey, FieldArgument, FieldTarget                            Field
)

func initKinds() {
	n := int(C.ts_language_symbol_count(language))
	kindNames = make([]string, n)
	for i := range n {
		kindNames[i] = C.GoString(C.ts_language_symbol_name(language, C.TSSymbol(i)))
	}
	fc := int(C.ts_language_field_count(language))
	fieldNames = make([]string, fc+1)
	for i := 1; i <= fc; i++ {
		fieldNames[i] = C.GoString(C.ts_language_field_name_for_id(language, C.TSFieldId(i)))
		fieldIDs[fieldNames[i]] = Field(i)
	}
	bindKinds()
	bindFields()
}

// symbolFor asks the grammar for the public symbol of a node type name; 0
// (the end symbol) when the grammar has none, which no parsed node carries.
func symbolFor(name string, named bool) Kind {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return Kind(C.ts_language_symbol_for_name(language, cs, C.uint32_t(len(name)), C.bool(named)))
}

// FieldOf returns the Field of a grammar field name (0 when unknown).
func FieldOf(name string) Field { return fieldIDs[name] }

// String is the grammar's name for the kind ("call", "identifier", "ERROR").
func (k Kind) String() string {
	if k == KindError {
		return "ERROR"
	}
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// String is the grammar's name for the field, or "" for none.
func (f Field) String() string {
	if int(f) < len(fieldNames) {
		return fieldNames[f]
	}
	return ""
}

func bindKinds() {
	for p, name := range map[*Kind]string{
		&KindModule: "module", &KindComment: "comment", &KindIdentifier: "identifier",
		&KindAttribute: "attribute", &KindCall: "call", &KindArgumentList: "argument_list",
		&KindKeywordArgument: "keyword_argument", &KindString: "string", &KindInteger: "integer",
		&KindFunctionDef: "function_definition", &KindClassDef: "class_definition",
		&KindDecoratedDef: "decorated_definition", &KindDecorator: "decorator",
		&KindAssignment: "assignment", &KindAugAssignment: "augmented_assignment",
		&KindExpressionStatement: "expression_statement", &KindBlock: "block",
		&KindImport: "import_statement", &KindImportFrom: "import_from_statement",
		&KindAliasedImport: "aliased_import", &KindDottedName: "dotted_name",
		&KindRelativeImport: "relative_import", &KindImportPrefix: "import_prefix",
		&KindWildcardImport: "wildcard_import", &KindLambda: "lambda",
		&KindReturn: "return_statement", &KindRaise: "raise_statement", &KindIf: "if_statement", &KindElif: "elif_clause",
		&KindElse: "else_clause", &KindWith: "with_statement", &KindWithItem: "with_item",
		&KindFor: "for_statement", &KindWhile: "while_statement", &KindTry: "try_statement",
		&KindTuple: "tuple", &KindList: "list", &KindDictionary: "dictionary", &KindPair: "pair",
		&KindTrue: "true", &KindFalse: "false", &KindNone: "none",
		&KindComparison: "comparison_operator", &KindNot: "not_operator",
		&KindBoolean: "boolean_operator", &KindParenthesized: "parenthesized_expression",
		&KindSubscript: "subscript", &KindParameters: "parameters",
		&KindDefaultParameter: "default_parameter", &KindTypedParameter: "typed_parameter",
		&KindTypedDefaultParameter: "typed_default_parameter", &KindListSplat: "list_splat",
		&KindDictSplat: "dictionary_splat", &KindListSplatPattern: "list_splat_pattern",
		&KindDictSplatPattern: "dictionary_splat_pattern", &KindGlobal: "global_statement",
		&KindNonlocal: "nonlocal_statement", &KindPatternList: "pattern_list",
		&KindTuplePattern: "tuple_pattern", &KindSet: "set", &KindBinaryOperator: "binary_operator",
		&KindUnaryOperator: "unary_operator", &KindConditionalExpr: "conditional_expression",
		&KindFloat: "float", &KindConcatenatedString: "concatenated_string",
		&KindStringContent: "string_content", &KindPass: "pass_statement",
		&KindAsPattern: "as_pattern", &KindNamedExpression: "named_expression",
		&KindKeywordSeparator: "keyword_separator", &KindExpressionList: "expression_list",
		&KindListPattern: "list_pattern", &KindMatch: "match_statement",
	} {
		*p = symbolFor(name, true)
	}
	KindError = Kind(0xFFFF) // ts_builtin_sym_error
}

func bindFields() {
	for p, name := range map[*Field]string{
		&FieldFunction: "function", &FieldArguments: "arguments", &FieldName: "name",
		&FieldValue: "value", &FieldLeft: "left", &FieldRight: "right", &FieldBody: "body",
		&FieldObject: "object", &FieldAttribute: "attribute", &FieldParams: "parameters",
		&FieldCondition: "condition", &FieldConsequence: "consequence",
		&FieldAlternative: "alternative", &FieldAlias: "alias", &FieldModuleName: "module_name",
		&FieldDefinition: "definition", &FieldSuperclasses: "superclasses", &FieldType: "type",
		&FieldOperators: "operators", &FieldOperator: "operator", &FieldSubscript: "subscript",
		&FieldReturnType: "return_type", &FieldKey: "key", &FieldArgument: "argument",
		&FieldTarget: "target",
	} {
		*p = fieldIDs[name]
	}
}
