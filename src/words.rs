//! Words in gamelab's messages: a count with its noun in the right number ("1 job",
//! "2 jobs"), so no message says "ran 1 jobs".

/// `n` with `one` or `many` after it: `count(1, "job", "jobs")` is "1 job".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "job", "jobs"), "1 job");
        assert_eq!(count(0, "job", "jobs"), "0 jobs");
        assert_eq!(count(2, "game", "games"), "2 games");
    }
}
