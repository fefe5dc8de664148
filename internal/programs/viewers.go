package programs

// viewers: eza, which lists files as ls does.
//
// less is not here, by decision: under a terminal it waits for keys at a
// prompt whose commands run programs (!, |, v), its +command operands run
// at start, and LESSOPEN runs a preprocessor on every file; the public
// regressions corpus keeps it asked about. cat, head and tail read the
// same files without any of that.
func viewers() []*Spec {
	return []*Spec{
		{ReadOnly: true, Command: "eza", Syntax: Clap, Reason: "lists files; links are not followed",
			Options: join(
				opts("-1,--oneline -l,--long -G,--grid -x,--across -R,--recurse -T,--tree -F,--classify[=] --color[=] --colour[=] --color-scale[=] --colour-scale[=] --icons[=] --no-quotes --hyperlink -w,--width= --absolute[=] -a,--all -A,--almost-all -d,--list-dirs,--treat-dirs-as-files -L,--level= -r,--reverse -s,--sort= --group-directories-first --group-directories-last -D,--only-dirs -f,--only-files -I,--ignore-glob= --git-ignore -b,--binary -B,--bytes -g,--group -h,--header -H,--links -i,--inode -m,--modified -M,--mounts -n,--numeric -S,--blocksize -t,--time= -u,--accessed -U,--created --changed --time-style= --total-size -o,--octal-permissions --no-permissions --no-filesize --no-user --no-time --smart-group -Z,--context -@,--extended -O,--flags --show-symlinks --no-symlinks --no-git -v,--version -?,--help"),
				unsafe("follows symbolic links, which may lead out of the sandbox", "-X,--dereference --follow-symlinks"),
				unsafe("reads repositories with its own git library, whose reading of their configuration is not the classifier's", "--git --git-repos --git-repos-no-status"),
			)},
	}
}
