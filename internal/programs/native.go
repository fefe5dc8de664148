package programs

// nativeProjectCode: the build tools of compiled languages and of the Apple,
// JVM and Dart platforms. Each runs what the project's build files say
// (CMakeLists.txt's execute_process, build.ninja's commands, build.sbt and
// its plugins, an Xcode project's run-script phases, a compiler plugin or
// a preprocessed #include of any file), and several fetch dependencies
// that those files name. They are project code: confined, they run
// without asking; without confinement a person decides. A lone --version
// or --help runs nothing of the project.
func nativeProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{
		{Command: "cmake"}, {Command: "ctest"}, {Command: "ninja"}, {Command: "meson"},
		{Command: "bazel"}, {Command: "bazelisk"},
		{Command: "cc"}, {Command: "c++"}, {Command: "gcc"}, {Command: "g++"},
		{Command: "clang"}, {Command: "clang++"},
		{Command: "xcodebuild"}, {Command: "swiftlint"}, {Command: "swiftformat"},
		{Command: "sbt"}, {Command: "sbtn"},
		{Command: "flutter", Subcommands: words("analyze test build run clean")},
		{Command: "dart", Subcommands: words("analyze test run compile format fix")},
	}
}
