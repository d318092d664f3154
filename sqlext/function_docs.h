// What each of the extension's SQL functions and table-valued functions
// does, in one place: gem_help() returns it, and docs/sql-functions.md is
// written from it (tools/docs/make_sql_page.py, which also fails when a
// function is registered without an entry here, or an entry names none).
#ifndef GEM_SQLEXT_FUNCTION_DOCS_H_
#define GEM_SQLEXT_FUNCTION_DOCS_H_

#include <span>
#include <string>

namespace gem::sqlext {

struct FunctionDoc {
  const char* name;  // as registered: "gem_value"
  const char* call;  // how it is called, optional arguments in brackets
  const char* what;  // what it returns, and when NULL or an error
};

// In the order the reference page shows them.
std::span<const FunctionDoc> FunctionDocs();

// [{"name": ..., "call": ..., "what": ...}, ...] (gem_help()'s result).
std::string FunctionDocsJson();

}  // namespace gem::sqlext

#endif  // GEM_SQLEXT_FUNCTION_DOCS_H_
