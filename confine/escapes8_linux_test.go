package confine

import "testing"

// TestEscapeDesktopAppSessions: CredentialPaths hides browsers' profiles
// but not those of the desktop programs built the same way (Electron,
// Chromium's cookie and local storage: session cookies and tokens that
// log into the user's accounts, encrypted with Chromium's fixed "peanuts"
// key where no keyring runs), nor JetBrains IDEs' own credential store
// (c.kdbx and the c.pwd that opens it, used when no keyring runs) nor
// Telegram's and Signal's session keys. A confined command read each:
//
//	cat ~/.config/Slack/Cookies ~/.config/discord/Cookies \
//	    ~/.config/JetBrains/IntelliJIdea2024.1/c.kdbx ~/.config/JetBrains/IntelliJIdea2024.1/c.pwd \
//	    ~/.config/Code/User/globalStorage/state.vscdb ~/.config/Signal/config.json \
//	    ~/.local/share/TelegramDesktop/tdata/key_datas ~/.config/Element/Cookies
func TestEscapeDesktopAppSessions(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	secrets := map[string]string{
		".config/Slack/Cookies":                        "slack d cookie",
		".config/discord/Cookies":                      "discord session",
		".config/JetBrains/IntelliJIdea2024.1/c.kdbx":  "jetbrains keepass",
		".config/JetBrains/IntelliJIdea2024.1/c.pwd":   "jetbrains master key",
		".config/Code/User/globalStorage/state.vscdb":  "vscode secret storage",
		".config/Signal/config.json":                   "signal db key",
		".local/share/TelegramDesktop/tdata/key_datas": "telegram session key",
		".config/Element/Cookies":                      "element session",
	}
	assertSecretsHidden(t, home, secrets)
}
