package programs

// Numeric IP addresses, read as net/netip reads them (ParseAddr), so that
// a host given to a program can be told from a name it would look up in
// the DNS. They are read here rather than with net/netip, whose package
// initialisation every process that imports this package would pay (a
// hook is one process per tool call); ipaddr_test.go compares both.

// isIPv4 reports whether s is an IPv4 address in dotted-quad form: four
// decimal fields from 0 to 255, none with a leading zero.
func isIPv4(s string) bool {
	var f [4]byte
	return parseIPv4(s, f[:])
}

// parseIPv4 reads the dotted quad s into f (four bytes).
func parseIPv4(s string, f []byte) bool {
	val, pos, digits := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if digits == 1 && val == 0 {
				return false // a leading zero
			}
			val = val*10 + int(c-'0')
			digits++
			if val > 255 {
				return false
			}
		case c == '.':
			if i == 0 || i == len(s)-1 || s[i-1] == '.' || pos == 3 {
				return false
			}
			f[pos] = byte(val)
			pos++
			val, digits = 0, 0
		default:
			return false
		}
	}
	if pos < 3 {
		return false
	}
	f[3] = byte(val)
	return true
}

// isPlainIPv6 reports whether s is an IPv6 address without a zone that is
// not an IPv4-mapped one (::ffff:a.b.c.d in any spelling).
func isPlainIPv6(s string) bool {
	ip, ok := parseIPv6(s)
	if !ok {
		return false
	}
	for _, b := range ip[:10] {
		if b != 0 {
			return true
		}
	}
	return ip[10] != 0xff || ip[11] != 0xff
}

// parseIPv6 reads s, an IPv6 address without a zone: up to eight groups
// of one to four hexadecimal digits separated by colons, one "::"
// standing for at least one group of zeros, and the last two groups
// possibly written as a dotted quad.
func parseIPv6(s string) (ip [16]byte, ok bool) {
	// The first of '.', ':' and '%' decides how netip reads an address:
	// only ':' makes it an IPv6 one.
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == '%' {
			return ip, false
		}
		if s[i] == ':' {
			break
		}
	}
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if s == "" {
			return ip, true
		}
	}
	i := 0
	for i < 16 {
		off, acc := 0, 0
		for ; off < len(s); off++ {
			d := hexDigit(s[off])
			if d < 0 {
				break
			}
			if off > 3 {
				return ip, false // more than four digits
			}
			acc = acc<<4 | d
		}
		if off == 0 {
			return ip, false
		}
		if off < len(s) && s[off] == '.' {
			if ellipsis < 0 && i != 12 || i+4 > 16 {
				return ip, false
			}
			if !parseIPv4(s, ip[i:i+4]) {
				return ip, false
			}
			s, i = "", i+4
			break
		}
		ip[i], ip[i+1] = byte(acc>>8), byte(acc)
		i += 2
		s = s[off:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return ip, false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return ip, false // a second "::"
			}
			ellipsis = i
			s = s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return ip, false
	}
	switch {
	case i < 16 && ellipsis < 0:
		return ip, false
	case i < 16:
		n := 16 - i
		for j := i - 1; j >= ellipsis; j-- {
			ip[j+n] = ip[j]
		}
		clear(ip[ellipsis : ellipsis+n])
	case ellipsis >= 0:
		return ip, false // "::" standing for nothing
	}
	return ip, true
}

// hexDigit returns the value of the hexadecimal digit c, or -1.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
