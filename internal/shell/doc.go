// Package shell turns a shell script, as given to `sh -c` or `bash -c`, into
// the simple commands it would run, or into an "inscrutable" answer.
//
// The package is the front end of the shell-command classifier. It parses
// with mvdan.cc/sh/v3/syntax, in the grammar of the shell that runs the
// script (see [Dialect]: bash, POSIX sh as dash runs it, MirBSD ksh; zsh
// has no grammar of its own and is accepted only where bash and POSIX read
// the script alike), and accepts only scripts whose meaning is fixed by
// their text alone:
//
//   - simple commands of literal words: quotes are removed and backslash
//     escapes decoded exactly as the shell would, so `"cu"rl`, `'su”do'` and
//     `\curl` come out as curl and sudo;
//   - environment assignments in front of a command, or alone (`X=1`), with
//     literal values;
//   - redirections whose target is a literal word, or a file-descriptor
//     duplication (`2>&1`, `>&2`, `<&0`, `>&-`);
//   - the structure joining those commands: one command, a pipeline
//     (`|`, `|&`), or a list (`&&`, `||`, `;`, newline), with `!` negation
//     and the `time` keyword looked through.
//
// Everything else is reported as an [*InscrutableError] carrying a reason:
// parameter expansion ($X, ${X}), command substitution ($(...) and
// backticks), arithmetic, process substitution, ANSI-C ($'...') and locale
// ($"...") quoting, brace expansion ({a,b}, {1..3}), extended globs,
// subshells, brace groups, functions, loops, if/case, [[ ]], (( )),
// declarations (export, declare, local, readonly), here-documents and
// here-strings, background jobs (&), coprocesses, redirections to
// non-literal targets or named file descriptors, the builtins that run text
// or change how later names resolve (eval, exec, source, ., trap, alias,
// builtin, enable, hash, shopt, fc, bind, mapfile/readarray, let, set with
// anything but plain option flags), and syntax errors.
//
// Globs are decided this way: an unquoted *, ? or [...] is kept in the word
// and the word is marked in [Command.Globs], with the pattern as the shell
// matches it (quoted characters escaped) in [Command.Patterns]; the caller
// expands it with [Expand] or treats the command as not safe. In a zsh
// script a glob is inscrutable: zsh's patterns (recursive **, qualifiers,
// numeric ranges) are not bash's. A leading unquoted ~ is kept as is;
// callers treat it as the home directory.
//
// The grammar matters: the same text is different commands to different
// shells (`true &>/dev/null curl x` is one command to bash and a
// background job followed by curl to dash), so a caller that does not know
// which shell will run a script parses it with every [Dialect] the shell
// may be and keeps the worst answer. [Expand] computes a glob's matches
// with the rules of the dialect, or says that it cannot ([ErrNotExact]).
package shell
