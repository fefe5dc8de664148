package confine

import "golang.org/x/sys/unix"

// legacyModeSetters are the older system calls of x86-64 that set a file's
// mode (the newer architectures have only the *at forms).
var legacyModeSetters = [...]modeSetter{
	{nr: unix.SYS_OPEN, flagsArg: 1, modeArg: 2},
	{nr: unix.SYS_CREAT, modeArg: 1},
	{nr: unix.SYS_MKNOD, modeArg: 1},
	{nr: unix.SYS_CHMOD, modeArg: 1},
}
