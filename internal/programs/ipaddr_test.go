package programs

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// netipIPv4 and netipPlainIPv6 are what lsofAddress asked of net/netip
// before it read addresses itself.
func netipIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return strings.Count(s, ".") == 3 && err == nil && a.Is4()
}

func netipPlainIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && !a.Is4In6() && a.Zone() == ""
}

var ipSeeds = []string{
	"", ".", "0.0.0.0", "127.0.0.1", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.4.5",
	"01.2.3.4", "1.02.3.4", "1.2.3.00", "1..2.3", ".1.2.3", "1.2.3.", "1.2.3.4%eth0", "1.2.3.-4",
	"0x7f.0.0.1", "1e1.2.3.4", " 1.2.3.4", "1.2.3.4 ", "dead.beef", "1234", "evil.example",
	"::", "::1", "1::", "::ffff:1.2.3.4", "::ffff:0102:0304", "::FFFF:1.2.3.4", "::fffe:1.2.3.4",
	"0:0:0:0:0:ffff:102:304", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1:2:3:4:5:6::7:8",
	"1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "1::2::3", ":1:2:3:4:5:6:7", "1:2:3:4:5:6:7:", "12345::", "fe80::1%eth0",
	"fe80::1%", "::1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "1::1.2.3.4", "::1.2.3", "::1.2.3.04",
	"abcd:ef01:2345:6789:ABCD:EF01:2345:6789", "g::1", "::g", ":::", "1:::2", "1:2", "[::1]", "::1.2.3.4.5",
	"1.2.3.4::", "%", "1%1.2.3.4", "::%", "0::0", "00000::", "0000::", "::0.0.0.0", "64:ff9b::1.2.3.4",
}

// TestIPAddressesAsNetip: the addresses lsof may be given are read as
// net/netip reads them.
func TestIPAddressesAsNetip(t *testing.T) {
	for _, s := range ipSeeds {
		assert.Equal(t, netipIPv4(s), isIPv4(s), "IPv4 %q", s)
		assert.Equal(t, netipPlainIPv6(s), isPlainIPv6(s), "IPv6 %q", s)
	}
}

func FuzzIPAddressesAsNetip(f *testing.F) {
	for _, s := range ipSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if netipIPv4(s) != isIPv4(s) {
			t.Errorf("IPv4 %q: netip %v, isIPv4 %v", s, netipIPv4(s), isIPv4(s))
		}
		if netipPlainIPv6(s) != isPlainIPv6(s) {
			t.Errorf("IPv6 %q: netip %v, isPlainIPv6 %v", s, netipPlainIPv6(s), isPlainIPv6(s))
		}
	})
}
