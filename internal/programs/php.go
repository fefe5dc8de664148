package programs

// php: the PHP interpreter's command line, for the project-code rules: php
// on a file in the project (php artisan test, php bin/console) runs that
// file. Inline code (-r, -B, -R, -E) and the interactive shell (-a) are
// judged by the lists instead.
func phpInterpreter() *Interpreter {
	return &Interpreter{
		withValue: wordSet(words("-c -d -z -t -S")),
		inline:    wordSet(words("-r -B -R -E -a")),
	}
}
