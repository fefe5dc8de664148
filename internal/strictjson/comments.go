package strictjson

// StripComments returns a copy of data with the comments (// to the end of
// the line, /* to */) and the trailing commas (a comma followed, past
// white space and comments, by } or ]) of JSONC replaced by spaces, so
// that the result is plain JSON with every other byte at its offset. Line
// breaks inside comments are kept, so lines stay where they were. Strings
// are copied as they are, "//" in them included. An unterminated comment
// is kept as it is, for the JSON reader to reject.
func StripComments(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	comma := -1     // the offset of the last comma not yet followed by a value
	last := byte(0) // the last byte of JSON seen, outside comments
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"':
			comma, last = -1, '"'
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			j := i
			for j < len(out) && out[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j - 1
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			j := i + 2
			for j+1 < len(out) && !(out[j] == '*' && out[j+1] == '/') {
				j++
			}
			if j+1 >= len(out) {
				return out // unterminated: left for the reader to reject
			}
			blank(i, j+2)
			i = j + 1
		case c == ',':
			// Only a comma after a value may trail: "[,]" stays for the
			// reader to reject.
			comma = -1
			if last != 0 && last != '[' && last != '{' && last != ',' && last != ':' {
				comma = i
			}
			last = c
		case c == '}' || c == ']':
			if comma >= 0 {
				out[comma] = ' '
			}
			comma, last = -1, c
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			comma, last = -1, c
		}
	}
	return out
}
