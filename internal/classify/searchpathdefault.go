package classify

// When a wrapper removes PATH from the environment (env -i, env -u PATH,
// exec -c), the programs started afterwards do not search the caller's
// PATH but a built-in one:
//
//   - a program that runs its operand with execvp (env, nice, timeout, ...)
//     searches the C library's default: /bin:/usr/bin for glibc,
//     /usr/local/bin:/bin:/usr/bin for musl;
//   - a shell sets its own default, which it does not export
//     (programs.ShellDefaultPath): bash's ends in ".", the working
//     directory, so `env -i bash -c 'go test'` runs ./go when no system
//     directory has go.
//
// The classifier resolves each command name with the PATH that applies,
// and judges it as for the caller's PATH (searchpath.go): a relative entry
// makes no command safe, an entry inside the sandbox makes a program found
// there "none". A shell whose default is not known here is given bash's,
// which holds the relative entry.

// libcDefaultPath is every directory the C libraries' execvp searches
// when PATH is unset.
const libcDefaultPath = "/usr/local/bin:/bin:/usr/bin"

// withSearchPath runs f with the command names resolved against value,
// and restores the classifier's search path afterwards.
func (r *cmdClassifier) withSearchPath(value string, f func() Verdict) Verdict {
	saved := r.searchPath
	r.searchPath = scanSearchPath(value, r.sandbox)
	defer func() { r.searchPath = saved }()
	return f()
}
