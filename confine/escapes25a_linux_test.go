package confine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Red-team round 25a: credentials of the home that CredentialPaths and
// codingAgents do not name. Each file was planted under a fake HOME and
// read with `HOME=FAKE sandboxauth run --sandbox SB -- ./read.sh` (cat
// "$HOME/NAME") as root: every one printed.

// TestEscape25aPackageRegistryTokens: the tokens of package registries
// and artifact stores not listed beside .npmrc, .pypirc, cargo's and
// gem's credentials:
//
//   - bun's global bunfig (~/.bunfig.toml, $XDG_CONFIG_HOME/.bunfig.toml):
//     [install.scopes] and [install.registry] tokens;
//   - JFrog CLI (~/.jfrog/jfrog-cli.conf.v6): Artifactory access tokens
//     and passwords;
//   - Dart and Flutter's pub (~/.config/dart/pub-tokens.json, and the
//     legacy pub.dev OAuth credentials ~/.pub-cache/credentials.json);
//   - Hex (~/.hex/hex.config: api_key; rebar3's ~/.config/rebar3/hex.config);
//   - Conan (~/.conan2/credentials.json; Conan 1's token database
//     ~/.conan/.conan.db);
//   - Coursier (~/.config/coursier/credentials.properties), Hackage
//     through stack (~/.stack/upload/credentials.json), Julia's package
//     servers (~/.julia/servers/<server>/auth.toml), anaconda.org
//     (~/.continuum/anaconda-client/tokens/*.token);
//   - uv's user settings (~/.config/uv/uv.toml: an index URL with its
//     password, as pip.conf, which is hidden).
func TestEscape25aPackageRegistryTokens(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHidden(t, home, map[string]string{
		".bunfig.toml":                               "[install.registry]\ntoken = \"BUNFIGHOMESECRET\"",
		".config/.bunfig.toml":                       "[install.scopes]\nmyorg = { token = \"BUNFIGXDGSECRET\" }",
		".jfrog/jfrog-cli.conf.v6":                   `{"servers":[{"accessToken":"JFROGSECRET"}]}`,
		".config/dart/pub-tokens.json":               `{"hosted":[{"url":"https://pub.example","token":"PUBTOKENSECRET"}]}`,
		".pub-cache/credentials.json":                `{"refreshToken":"PUBCACHESECRET"}`,
		".hex/hex.config":                            `{api_key,<<"HEXSECRET">>}.`,
		".config/rebar3/hex.config":                  `#{<<"hexpm">> => #{repo_key => <<"REBARHEXSECRET">>}}.`,
		".conan2/credentials.json":                   `{"credentials":[{"remote":"r","user":"u","password":"CONANSECRET"}]}`,
		".conan/.conan.db":                           "SQLite format 3 token CONAN1SECRET",
		".config/coursier/credentials.properties":    "repo.password=COURSIERSECRET",
		".stack/upload/credentials.json":             `{"username":"u","password":"STACKHACKAGESECRET"}`,
		".julia/servers/pkg.julialang.org/auth.toml": "access_token = \"JULIAPKGSECRET\"",
		".continuum/anaconda-client/tokens/https%3A%2F%2Fapi.anaconda.org.token": "ANACONDASECRET",
		".config/uv/uv.toml": "[[index]]\nurl = \"https://u:UVINDEXSECRET@pypi.example/simple\"",
	})
}

// TestEscape25aCloudAndServiceTokens: command-line tools of hosting and
// cloud services that keep their token in a file of their own:
// Backblaze B2 (~/.b2_account_info, its account database with the
// application key), OVH (~/.ovh.conf), gsutil's credential store
// (~/.gsutil/credstore2; ~/.boto is hidden), Chef's client key and
// credentials (~/.chef), Google's and Gerrit's git cookie file
// (~/.gitcookies, http.cookieFile), the legacy Vercel CLI (~/.now), Turso,
// Neon, PlanetScale, Convex, Render, Buildkite's bk and lab (a GitLab
// CLI), fastlane's Apple session cookies (~/.fastlane/spaceship) and
// davfs2's secrets.
func TestEscape25aCloudAndServiceTokens(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHidden(t, home, map[string]string{
		".b2_account_info":                         "SQLite format 3 application_key B2SECRET",
		".ovh.conf":                                "[ovh-eu]\napplication_secret=OVHSECRET\nconsumer_key=OVHCK",
		".gsutil/credstore2":                       `{"refresh_token":"GSUTILSECRET"}`,
		".chef/user.pem":                           "-----BEGIN RSA PRIVATE KEY-----CHEFKEYSECRET",
		".chef/credentials":                        "[default]\nclient_key = \"CHEFCREDSECRET\"",
		".gitcookies":                              ".googlesource.com\tTRUE\t/\tTRUE\t2147483647\to\tgit-u=GITCOOKIESECRET",
		".now/auth.json":                           `{"token":"NOWSECRET"}`,
		".config/turso/settings.json":              `{"config":{"token":"TURSOSECRET"}}`,
		".config/neonctl/credentials.json":         `{"access_token":"NEONSECRET"}`,
		".config/planetscale/access-token":         "PLANETSCALESECRET",
		".convex/config.json":                      `{"accessToken":"CONVEXSECRET"}`,
		".render/cli.yaml":                         "api_key: RENDERSECRET",
		".config/bk.yaml":                          "organizations:\n  o:\n    api_token: BUILDKITESECRET",
		".config/lab/lab.toml":                     "[core]\ntoken = \"LABSECRET\"",
		".fastlane/spaceship/u@example.com/cookie": "myacinfo=FASTLANESECRET",
		".davfs2/secrets":                          "https://dav.example u DAVFSSECRET",
	})
}

// TestEscape25aChatPasswordsAndStreamKeys: clients that keep passwords in
// plain text in their settings: Pidgin (~/.purple/accounts.xml), irssi
// (~/.irssi/config: NickServ and server passwords), HexChat
// (servlist.conf), WeeChat's secured data (sec.conf, in the clear when no
// passphrase is set); OBS Studio's streaming keys (service.json of each
// profile); lftp's bookmarks (passwords saved with bmk:save-passwords);
// Jupyter's runtime files (jpserver-*.json: the running server's token;
// kernel-*.json: the kernels' signing keys).
func TestEscape25aChatPasswordsAndStreamKeys(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHidden(t, home, map[string]string{
		".purple/accounts.xml":                                "<password>PIDGINSECRET</password>",
		".irssi/config":                                       `servers = ( { address = "irc.example"; password = "IRSSISECRET"; } );`,
		".config/hexchat/servlist.conf":                       "N=net\nP=HEXCHATSECRET",
		".config/weechat/sec.conf":                            "[data]\nfreenode_password = \"WEECHATSECRET\"",
		".weechat/sec.conf":                                   "[data]\npw = \"WEECHATOLDSECRET\"",
		".config/obs-studio/basic/profiles/Main/service.json": `{"settings":{"key":"live_OBSSTREAMSECRET"}}`,
		".lftp/bookmarks":                                     "prod ftp://u:LFTPSECRET@ftp.example/",
		".local/share/jupyter/runtime/jpserver-1234.json":     `{"token":"JUPYTERSERVERSECRET"}`,
		".local/share/jupyter/runtime/kernel-abc.json":        `{"key":"JUPYTERKERNELSECRET"}`,
	})
}

// TestEscape25aMoreSystemSecretsAsRoot: as root the command reads every
// root-only file but the system secrets systemCredentials names. More of
// the same kind stay readable: the password history of pam_pwhistory
// (/etc/security/opasswd: old password hashes), the bind passwords of
// LDAP clients (/etc/ldap.secret, /etc/libnss-ldap.secret,
// /etc/pam_ldap.secret, sssd.conf's ldap_default_authtok), Samba's
// password database, the SMTP relay passwords of exim, ssmtp and the
// system msmtprc, ddclient's dynamic DNS password, BIND's rndc and TSIG
// keys, Ceph's admin keyring, Jenkins' master key and credentials, root's
// crontab (the commands with their tokens) and mail spool, PgBouncer's
// userlist, Redis's requirepass, Datadog's agent API key, Grafana's and
// Gitea's secrets, containerd's registry credentials, a cloudflared
// tunnel's credentials, hostapd's passphrase.
//
//	cat /etc/security/opasswd /etc/ldap.secret /etc/sssd/sssd.conf /etc/exim4/passwd.client ...
//
// Verified with sandboxauth run as root: all printed. The files are made
// only where missing, and removed afterwards.
func TestEscape25aMoreSystemSecretsAsRoot(t *testing.T) {
	requireConfinement(t)
	if os.Geteuid() != 0 {
		t.Log("not root: root-only files are closed to the command anyway")
		return
	}
	secrets := map[string]string{
		"/etc/security/opasswd":                 "u:1000:1:$6$OPASSWDSECRET",
		"/etc/ldap.secret":                      "LDAPSECRETSECRET",
		"/etc/libnss-ldap.secret":               "LIBNSSLDAPSECRET",
		"/etc/pam_ldap.secret":                  "PAMLDAPSECRETXX",
		"/etc/sssd/sssd.conf":                   "[domain/x]\nldap_default_authtok = SSSDAUTHTOKSECRET",
		"/var/lib/samba/private/passdb.tdb":     "TDB NTHASH SAMBAPASSDBSECRET",
		"/etc/samba/smbpasswd":                  "u:1000:XXXX:SMBPASSWDSECRET:[U]:LCT-0:",
		"/etc/exim4/passwd.client":              "*.example:u:EXIMCLIENTSECRET",
		"/etc/ssmtp/ssmtp.conf":                 "AuthPass=SSMTPAUTHSECRET",
		"/etc/msmtprc":                          "account default\npassword MSMTPSYSSECRET",
		"/etc/ddclient.conf":                    "password=DDCLIENTSECRET",
		"/etc/bind/rndc.key":                    `key "rndc-key" { secret "RNDCKEYSECRETX"; };`,
		"/etc/ceph/ceph.client.admin.keyring":   "[client.admin]\nkey = CEPHADMINSECRET",
		"/var/lib/jenkins/secrets/master.key":   "JENKINSMASTERSECRET",
		"/var/lib/jenkins/credentials.xml":      "<password>JENKINSCREDSECRET</password>",
		"/var/spool/cron/crontabs/root":         "0 * * * * curl -H 'Authorization: CRONTABSECRET' x",
		"/var/mail/root":                        "Subject: reset\n\nyour code MAILSPOOLSECRET",
		"/etc/pgbouncer/userlist.txt":           `"u" "PGBOUNCERSECRET"`,
		"/etc/redis/redis.conf":                 "requirepass REDISCONFSECRET",
		"/etc/datadog-agent/datadog.yaml":       "api_key: DATADOGAPISECRET",
		"/etc/grafana/grafana.ini":              "[security]\nsecret_key = GRAFANASECRETKEY",
		"/etc/gitea/app.ini":                    "[security]\nINTERNAL_TOKEN = GITEAINTERNALSECRET",
		"/etc/containerd/config.toml":           `[plugins."io.containerd.grpc.v1.cri".registry.configs."r".auth]\npassword = "CONTAINERDSECRET"`,
		"/etc/cloudflared/00000000-tunnel.json": `{"TunnelSecret":"CLOUDFLAREDTUNSECRET"}`,
		"/etc/hostapd/hostapd.conf":             "wpa_passphrase=HOSTAPDPASSSECRET",
	}
	for path, body := range secrets {
		if _, err := os.Lstat(path); err == nil {
			delete(secrets, path) // the machine's own: left alone
			continue
		}
		var made []string
		for d := filepath.Dir(path); ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil {
				break
			}
			made = append(made, d)
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
		t.Cleanup(func() {
			_ = os.Remove(path)
			for _, d := range made {
				_ = os.Remove(d)
			}
		})
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	for path, body := range secrets {
		out, _ := sh(t, p, sb, "cat "+path)
		assert.NotContains(t, out, body[len(body)-12:], "%s was readable by a command confined as root", path)
	}
}

// TestEscape25aEditorHistoriesInHome: the editors' own copies of what the
// user edits, the hidden files and the project's .env among them, kept in
// the home where no hidden path reaches (VS Code's and Cursor's History,
// Vim's and Neovim's swap and undo directories, Emacs's backups are
// hidden): JetBrains IDEs' Local History (~/.cache/JetBrains/PRODUCT/
// LocalHistory: the content of every version of every file edited),
// Sublime Text's sessions (hot exit keeps unsaved buffers' text in
// Session.sublime_session and Auto Save Session.sublime_session), micro's
// backups (~/.config/micro/backups/%path%of%file), Emacs undo-tree's
// history files (~/.emacs.d/undo-tree-hist/).
//
//	cat ~/.cache/JetBrains/*/LocalHistory/* ~/.config/sublime-text/Local/*.sublime_session ...
//
// Verified with sandboxauth run as root (HOME a fake home): all printed.
func TestEscape25aEditorHistoriesInHome(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	secrets := map[string]string{
		".cache/JetBrains/IntelliJIdea2024.1/LocalHistory/changes.storageData": "DB_PASSWORD=JBLOCALHISTSECRET",
		".config/sublime-text/Local/Session.sublime_session":                   `{"buffers":[{"contents":"API_KEY=SUBLIMESESSIONSECRET"}]}`,
		".config/micro/backups/%home%u%proj%.env":                              "API_KEY=MICROBACKUPSECRET",
		".emacs.d/undo-tree-hist/.!home!u!proj!.env.~undo-tree~":               "API_KEY=UNDOTREEHISTSECRET",
	}
	for rel := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700))
	}
	assertSecretsHiddenQuoted(t, home, secrets)
}
