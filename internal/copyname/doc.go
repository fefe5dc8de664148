// Package copyname tells the names of the copies editors, file managers,
// package managers, archivers and people leave beside a file or a
// directory (NAME~, #NAME#, .NAME.swp, NAME.bak, "NAME (copy)", "Copy of
// NAME", NAME.tar.gz, NAME-backup, a dated NAME.2024-01-31, ...) from
// the other names that begin with it (.env.example, .yarnrc.yml).
//
// It is the one definition of "a copy of a protected name" that both
// sides of sandboxauth use: the confinement hides the copies beside a
// hidden path (confine), and the hook's and the authorizers' read
// protection asks about the copies of a read-protected name
// (internal/classify), so that the two never disagree on what is
// secret.
package copyname
