//! Where a setting is written in a rules file, as `line:column` (both from 1, the column in
//! characters), so that a refusal about one setting points at it as a parse error does.
//!
//! The engine names the setting (`RulesError::setting`: `deal.hand_size`); this finds its value
//! in the text, or, when the file leaves it out, the section it would be in. TOML is read by
//! `toml_edit`, which keeps every item's span; JSON by the small reader below (serde_json keeps
//! none), which only has to walk a text already read as valid JSON.

/// `line:column` of `setting` (keys joined by `.`) in a rules file's `text`: its value, or the
/// deepest section of it the file writes; `None` when the file writes none of it.
pub fn place(text: &str, setting: &str) -> Option<String> {
    let keys: Vec<&str> = setting.split('.').collect();
    let offset = if text.trim_start().starts_with('{') { json_offset(text, &keys) } else { toml_offset(text, &keys) }?;
    Some(line_column(text, offset))
}

/// `line:column` of a byte offset.
fn line_column(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}")
}

fn toml_offset(text: &str, keys: &[&str]) -> Option<usize> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut item = doc.as_item();
    let mut found = None;
    for key in keys {
        match item.get(key) {
            Some(next) => {
                item = next;
                // A section left implicit by a dotted header (`[deck.wild]`) has no span of its own.
                if let Some(span) = item.span() {
                    found = Some(span.start);
                }
            }
            None => break,
        }
    }
    found
}

/// The byte offset of the value at `keys` in a JSON text (or of the deepest object on the way).
fn json_offset(text: &str, keys: &[&str]) -> Option<usize> {
    let mut reader = Json { text: text.as_bytes(), at: 0 };
    let mut found = None;
    for key in keys {
        match reader.find_member(key) {
            Some(at) => found = Some(at),
            None => break,
        }
    }
    found
}

/// A cursor over a JSON text: just enough to step over values and into members.
struct Json<'a> {
    text: &'a [u8],
    at: usize,
}

impl Json<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    /// At an object: moves to the value of its member `key` and returns where it starts.
    fn find_member(&mut self, key: &str) -> Option<usize> {
        self.skip_space();
        if self.text.get(self.at) != Some(&b'{') {
            return None;
        }
        self.at += 1;
        loop {
            self.skip_space();
            match self.text.get(self.at)? {
                b'}' => return None,
                b',' => self.at += 1,
                b'"' => {
                    let name = self.string()?;
                    self.skip_space();
                    if self.text.get(self.at) != Some(&b':') {
                        return None;
                    }
                    self.at += 1;
                    self.skip_space();
                    if name == key {
                        return Some(self.at);
                    }
                    self.skip_value()?;
                }
                _ => return None,
            }
        }
    }

    /// A string's text (escapes kept as written: keys are plain words); the cursor after it.
    fn string(&mut self) -> Option<String> {
        let start = self.at + 1;
        let mut i = start;
        loop {
            match self.text.get(i)? {
                b'\\' => i += 2,
                b'"' => break,
                _ => i += 1,
            }
        }
        self.at = i + 1;
        Some(String::from_utf8_lossy(&self.text[start..i]).into_owned())
    }

    /// Steps over one value: a string, an object or array (counting brackets outside strings),
    /// or a number or word.
    fn skip_value(&mut self) -> Option<()> {
        match self.text.get(self.at)? {
            b'"' => {
                self.string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.text.get(self.at)? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.at += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            _ => {
                while self.text.get(self.at).is_some_and(|c| !matches!(c, b',' | b'}' | b']')) {
                    self.at += 1;
                }
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::place;

    #[test]
    fn a_setting_is_found_where_the_file_writes_it() {
        let toml = "name = \"x\"\n\n[deal]\nfirst_card = \"official\"\nhand_size = 0\n";
        assert_eq!(place(toml, "deal.hand_size").as_deref(), Some("5:13"));
        // Left out: the section it would be in.
        assert_eq!(place(toml, "deal.turn_cap").as_deref(), Some("3:1"));
        assert_eq!(place(toml, "play.turn_cap"), None);
        assert_eq!(place("[deck.wild]\nwild = 99\n", "deck.wild.wild").as_deref(), Some("2:8"));
        assert_eq!(place("deal = { hand_size = 0 }\n", "deal.hand_size").as_deref(), Some("1:22"));

        let json = "{\n  \"name\": \"a \\\"b\\\" {c}\",\n  \"deck\": {\"colors\": [\"red\"]},\n  \"deal\": {\"hand_size\": 0}\n}";
        assert_eq!(place(json, "deal.hand_size").as_deref(), Some("4:25"));
        assert_eq!(place(json, "deck.colors").as_deref(), Some("3:22"));
        assert_eq!(place(json, "deal.first_card").as_deref(), Some("4:11"));
        assert_eq!(place(json, "players.min"), None);
        // Columns count characters, not bytes.
        assert_eq!(place("name = \"é\"\n[deal]\nhand_size = 0", "deal.hand_size").as_deref(), Some("3:13"));
    }
}
