// Package repotrust decides whether the files a project carries make a
// "safe" program unsafe: a git repository's configuration, hooks and
// layout, and the configuration files that steer npm, yarn, cargo,
// rustc, pip and uv.
//
// # The model
//
// A program is safe when its own behaviour is known; many programs also
// obey files found in the directory they run in. Those files are
// untrusted input: the model may have written them, or they may have
// arrived with the project (an archive, a clone). Each file is read as
// the program itself reads it, and only keys known not to run a program,
// contact a host or read outside the sandbox are harmless. Any other key,
// and any file that cannot be read or parsed, makes the program not safe.
// A deny-list of dangerous keys is never used: programs add keys every
// release.
//
// # Git
//
// The repository is found as git finds it (discover.go): $GIT_DIR, else
// the first of the working directory and its ancestors holding a valid
// .git directory, a "gitdir:" file, or itself a valid bare repository
// (a HEAD git accepts, objects and refs in the common directory that a
// commondir file may name). Ceilings and file-system boundaries are
// ignored: the walk goes to /, the worse case.
//
// Configuration is parsed with git's syntax (gitconfig_parse.go): byte
// order mark, comments, quotes, escapes, continuations, both section
// header forms. Files read: the common directory's config, the git
// directory's config.worktree (even without extensions.worktreeConfig),
// every include.path and includeIf.*.path whatever its condition (the
// worse case), the config of every repository under modules/ and of every
// submodule .gitmodules places in the work tree, GIT_CONFIG_COUNT pairs,
// and the user's and the system's files only when they lie inside the
// sandbox (a HOME there, GIT_CONFIG_GLOBAL naming a file there). Outside
// the sandbox those two are the user's own and are not read.
//
// The allow-list (gitconfig_keys.go) holds what git init, git clone, git
// submodule init and git lfs install write: layout facts, remotes and
// branches as names, the author. core.worktree passes when it names a
// directory in the sandbox. Everything else (core.fsmonitor, core.pager,
// man.viewer, browser.*.cmd, blame.ignoreRevsFile, extensions.partialClone,
// remote.*.promisor, aliases, filters, ...) is a problem. So is any entry
// in objects/info/alternates, and GIT_OBJECT_DIRECTORY,
// GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_INDEX_FILE or GIT_CONFIG_PARAMETERS
// in the environment.
//
// Hooks: each subcommand is mapped to the hooks it may run (gitcommand.go,
// after githooks(5), checked against real git): git add and any command
// that writes the index run post-index-change, and git status, git diff
// and git describe write the index after a refresh; ref updates run
// reference-transaction; git stash runs post-checkout (--keep-index checks
// paths out) but no commit hook; an unknown subcommand or form runs any.
// A hook that is present and executable makes the command not safe,
// unless the caller takes it as its own to answer (Judge: a hook inside
// the sandbox is the project's code, which confinement runs confined).
// core.hooksPath is a problem that the caller may accept (a hooks
// directory the model cannot write, or one of the project's).
//
// A repository whose git directory or common directory (a linked
// worktree's store, or the repository above a sandbox that is a
// subdirectory of it) lies outside the sandbox makes the subcommands that
// write refs, the index or objects not safe; refreshing the index's
// cached file times does not count as a write.
//
// A git directory inside the sandbox whose common directory lies outside
// it (a stub: HEAD and a commondir file, which the model can write when
// they are not in a .git directory) is a problem for every command,
// reading ones included: git would read another repository through it.
//
// The index is read (gitindex.go: versions 2 to 4; a sparse index is not
// understood, and neither is anything git would read otherwise than the
// reader: a path length in the flags that disagrees with the path, an
// end-of-entries or entry offset table that disagrees with the entries, a
// required extension other than "link"): its gitlinks are submodules whose
// configuration is read like those .gitmodules names, and its paths are
// what git diff and git grep --cached can print. A split index is read
// with the shared index it names (.git/sharedindex.<name>), merged as git
// merges them.
//
// # Contents: what git can print
//
// Whether a read-protected file is "in history" is learnt from names
// (gitstore.go, contents.go): the entry names of every tree in the object
// store, loose objects inflated and packs read through their version 2
// index with delta chains resolved, reachable or not (git cat-file
// --batch-all-objects prints unreachable ones too). A protected pattern
// is matched against each name by its last element, a superset of the
// paths it could match, so no committed path is missed; the cost is one
// pass over the trees, cached per object store with the stamps of its
// loose-object directories, packs and pack indexes. A store beyond the
// bounds (2,000,000 objects, 256 MiB of trees, 200,000 distinct names),
// or one not understood, is an error, which the caller takes as "a
// protected name may be there". A blob that no tree names (staged, then
// unstaged before a commit) is not found.
//
// Facts are cached (cache.go) per working directory, sandbox and git
// environment, with the stamp of every path consulted: device, inode,
// mode, size, modification and change time; a missing path is stamped by
// its nearest existing ancestor directory, whose times change when the
// path is created. Facts gathered from a file changed in the last two
// seconds are not kept, since a second change within the file system's
// clock tick would leave the stamp unchanged.
//
// Not covered: repositories nested in the work tree that neither
// .gitmodules nor the index names (the model cannot write into any .git,
// so such a repository arrives with the project), and submodules' own
// hooks and alternates.
//
// # Project files
//
// One file per ecosystem: npmrc.go (.npmrc in the project and its parents
// up to the sandbox), yarnrc.go (.yarnrc, .yarnrc.yml), rusttoolchain.go
// (rust-toolchain, rust-toolchain.toml), cargoconfig.go (.cargo/config,
// .cargo/config.toml from the project up to the sandbox), pipconf.go
// (pip.conf, pip.ini), uvtoml.go (uv.toml, pyproject.toml's [tool.uv]),
// pnpm.go (.pnpmfile.cjs and its kin, pnpm-workspace.yaml), shellcheckrc.go
// (.shellcheckrc), gotoolchain.go (go.mod and go.work go and toolchain
// lines against the installed Go) and rustsource.go (the Rust modules,
// path attributes and manifest paths rustfmt and cargo fmt follow). A
// project file holding a line break other than LF or CR LF is not
// understood: a lone CR ends a line for npm's ini reader and for YAML.
// Each exposes a function returning ok and, when not ok, a reason that
// names the file, line and key.
package repotrust
