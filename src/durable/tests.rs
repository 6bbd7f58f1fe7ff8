//! The durable files' tests: kills, full disks, locks and foreign folders.

use super::*;

/// A full disk is named once, with the folder, however deep the writer that met it; other
/// errors pass as they are (where the folder's disk has room).
#[test]
fn a_full_disk_is_named_once_with_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let enospc = anyhow::Error::from(std::io::Error::from_raw_os_error(28));
    let named = name_full_disk(enospc.context("writing x"), dir.path());
    let text = format!("{named:#}");
    assert!(
        text.starts_with(&format!(
            "no space left on the device of {}: ",
            dir.path().display()
        )),
        "{text}"
    );
    let outer = name_full_disk(named.context("writing y"), Path::new("/"));
    assert_eq!(
        format!("{outer:#}")
            .matches("no space left on the device of")
            .count(),
        1
    );
    if free_bytes(dir.path()).is_some_and(|f| f >= DISK_FULL_BELOW) {
        let other = name_full_disk(anyhow::anyhow!("permission denied"), dir.path());
        assert_eq!(format!("{other:#}"), "permission denied");
    }
}

#[test]
fn a_failed_atomic_write_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.txt");
    write_bytes_atomic(&p, b"old").unwrap();
    let err = write_atomic(&p, |f| {
        f.write_all(b"half")?;
        anyhow::bail!("disk full")
    });
    assert!(err.is_err());
    assert_eq!(std::fs::read(&p).unwrap(), b"old");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left"
    );
}

#[test]
fn a_replaced_folder_is_the_old_or_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("report");
    replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"1")).unwrap();
    assert_eq!(std::fs::read(link.join("a")).unwrap(), b"1");
    // A build that fails leaves the old folder in place and nothing beside it.
    let err: Result<()> = replace_folder(&link, |d| {
        write_bytes_atomic(&d.join("a"), b"2")?;
        anyhow::bail!("no space left")
    });
    assert!(err.is_err());
    assert_eq!(std::fs::read(link.join("a")).unwrap(), b"1");
    replace_folder(&link, |d| write_bytes_atomic(&d.join("b"), b"3")).unwrap();
    assert!(!link.join("a").exists(), "the new set only");
    assert_eq!(std::fs::read(link.join("b")).unwrap(), b"3");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "the link and one folder: {names:?}");
}

#[test]
fn a_folder_or_link_gamelab_did_not_make_is_refused_and_survives() {
    let dir = tempfile::tempdir().unwrap();
    // A real folder where the link belongs (the user's, or an older layout's).
    let real = dir.path().join("figs");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::write(real.join("mine.png"), b"x").unwrap();
    let err = replace_folder(&real, |d| write_bytes_atomic(&d.join("new.png"), b"y")).unwrap_err();
    assert!(
        err.downcast_ref::<crate::input_error::InputError>()
            .is_some(),
        "{err:#}"
    );
    assert!(err.to_string().contains("figs"), "{err}");
    assert_eq!(std::fs::read(real.join("mine.png")).unwrap(), b"x");
    // A link to the user's own folder, outside and beside: never followed for deletion.
    let paper = dir.path().join("paper");
    std::fs::create_dir_all(&paper).unwrap();
    std::fs::write(paper.join("draft.tex"), b"text").unwrap();
    for target in [
        paper.clone(),
        PathBuf::from("paper"),
        PathBuf::from(".report.1-2/../paper"),
    ] {
        let link = dir.path().join("report");
        std::fs::remove_file(&link).ok();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"1")).unwrap_err();
        assert!(
            err.downcast_ref::<crate::input_error::InputError>()
                .is_some(),
            "{err:#}"
        );
        assert_eq!(
            std::fs::read(paper.join("draft.tex")).unwrap(),
            b"text",
            "the user's folder survives a link {target:?}"
        );
        assert_eq!(
            std::fs::read_link(&link).unwrap(),
            target,
            "the user's link is left as it was"
        );
    }
    // Siblings that only look like ours (a link, a name without the stamp) are left alone.
    let link = dir.path().join("out");
    std::os::unix::fs::symlink(&paper, dir.path().join(".out.1-2")).unwrap();
    std::fs::create_dir_all(dir.path().join(".out.notes")).unwrap();
    replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"1")).unwrap();
    replace_folder(&link, |d| write_bytes_atomic(&d.join("a"), b"2")).unwrap();
    assert_eq!(std::fs::read(link.join("a")).unwrap(), b"2");
    assert!(dir.path().join(".out.notes").is_dir());
    assert_eq!(
        std::fs::read(dir.path().join(".out.1-2").join("draft.tex")).unwrap(),
        b"text"
    );
}

#[test]
fn input_files_are_regular_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.toml");
    std::fs::write(&p, "x = 1").unwrap();
    assert_eq!(read_input(&p).unwrap(), "x = 1");
    assert!(
        read_input(Path::new("/dev/zero"))
            .unwrap_err()
            .contains("not a regular file")
    );
    assert!(
        read_input(dir.path())
            .unwrap_err()
            .contains("not a regular file")
    );
    let big = dir.path().join("big");
    let f = File::create(&big).unwrap();
    f.set_len(MAX_INPUT_BYTES + 1).unwrap();
    assert!(read_input(&big).unwrap_err().contains("at most 64 MiB"));
}

#[test]
fn a_safe_component_never_leaves_its_folder() {
    for (name, safe) in [
        ("small", "small"),
        ("a.b-c_d", "a.b-c_d"),
        ("../../x", "_._.._x"),
        ("..", "_."),
        (".hidden", "_hidden"),
        ("", "_"),
        ("two\nlines", "two_lines"),
        ("/etc/passwd", "_etc_passwd"),
    ] {
        assert_eq!(safe_component(name), safe, "{name:?}");
        let joined = Path::new("/out").join(safe_component(name));
        assert_eq!(joined.parent(), Some(Path::new("/out")), "{name:?}");
    }
}

#[test]
fn a_seal_tells_an_intact_file_from_a_changed_one() {
    let text = "# best table\n1 2\n3 4\n";
    let s = sealed(text);
    assert_eq!(check_seal(&s), Some((text, true)));
    assert_eq!(
        check_seal(&s.replace("3 4", "3 5")).map(|c| c.1),
        Some(false)
    );
    let forged = format!("{text}# seal xxh3 0000000000000001\n");
    assert_eq!(check_seal(&forged).map(|c| c.1), Some(false));
    assert_eq!(check_seal(text), None);
    assert_eq!(check_seal(&sealed("no newline")).map(|c| c.1), Some(true));
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.txt");
    std::fs::write(&p, s.replace("1 2", "9 2")).unwrap();
    let err = read_sealed(&p, "the table").unwrap_err();
    assert!(
        err.downcast_ref::<crate::input_error::InputError>()
            .is_some()
            && err.to_string().contains("t.txt"),
        "{err}"
    );
    std::fs::write(&p, &s).unwrap();
    assert_eq!(read_sealed(&p, "the table").unwrap(), text);
}

#[test]
fn only_a_folder_of_own_files_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let owns = |f: &str| f.starts_with("batch-");
    let own = dir.path().join("partial");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("batch-1"), b"1").unwrap();
    remove_own_folder(&own, owns).unwrap();
    assert!(!own.exists());
    remove_own_folder(&own, owns).unwrap();
    // A stranger's file inside: nothing removed, the file named.
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("batch-1"), b"1").unwrap();
    std::fs::write(own.join("thesis.pdf"), b"x").unwrap();
    let err = remove_own_folder(&own, owns).unwrap_err();
    assert!(err.to_string().contains("thesis.pdf"), "{err}");
    assert!(own.join("batch-1").exists() && own.join("thesis.pdf").exists());
    // A link where the folder should be: the target survives, the link too.
    let theirs = dir.path().join("theirs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("batch-1"), b"1").unwrap();
    let link = dir.path().join("linked");
    std::os::unix::fs::symlink(&theirs, &link).unwrap();
    assert!(remove_own_folder(&link, owns).is_err());
    assert!(theirs.join("batch-1").exists());
    // A folder inside (whose files could be anyone's): refused.
    std::fs::remove_file(own.join("thesis.pdf")).unwrap();
    std::fs::create_dir_all(own.join("batch-2")).unwrap();
    assert!(remove_own_folder(&own, owns).is_err());
    assert!(own.join("batch-2").is_dir());
}

#[test]
fn an_exclusive_lock_names_its_holder_and_excludes_shared_ones() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("run.lock");
    let held = FolderLock::try_lock(&p, LockMode::Exclusive, "gamelab run x.toml").unwrap();
    let err = FolderLock::try_lock(&p, LockMode::Shared, "other")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("pid {} (gamelab run x.toml)", std::process::id())),
        "{err}"
    );
    drop(held);
    let a = FolderLock::try_lock(&p, LockMode::Shared, "a").unwrap();
    let _b = FolderLock::try_lock(&p, LockMode::Shared, "b").unwrap();
    assert!(FolderLock::try_lock(&p, LockMode::Exclusive, "c").is_err());
    drop(a);
}

/// A holder's line reads back as it was written, with or without its Slurm job, and a lock
/// held by this process is not taken for ended.
#[test]
fn a_holders_line_reads_back_with_its_machine_and_slurm_job() {
    assert_eq!(
        Holder::parse("pid 12 (gamelab run a (b).toml --shard 2/3) on node7 in Slurm job 4567_2\n"),
        Some(Holder {
            pid: 12,
            host: "node7".into(),
            slurm_job: Some("4567_2".into()),
        })
    );
    assert_eq!(
        Holder::parse("pid 9 (gamelab run x.toml) on vm"),
        Some(Holder {
            pid: 9,
            host: "vm".into(),
            slurm_job: None,
        })
    );
    assert_eq!(Holder::parse(""), None);
    assert_eq!(Holder::parse("pid x (y) on z"), None);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("run.lock");
    assert_eq!(holder_ended(&p), None);
    let held = FolderLock::try_lock(&p, LockMode::Exclusive, "gamelab run x.toml").unwrap();
    let holder = lock_holder(&p).unwrap();
    assert_eq!(
        (holder.pid, holder.host.as_str()),
        (std::process::id(), host_name().as_str())
    );
    assert_eq!(holder_ended(&p), Some(false));
    drop(held);
    std::fs::write(
        &p,
        "pid 1 (gamelab run x.toml) on another-machine in Slurm job 8\n",
    )
    .unwrap();
    assert_eq!(holder_ended(&p), None);
}

/// A holder killed and not yet reaped (a zombie: its /proc entry stays until its parent
/// waits) has ended; a running one has not.
#[test]
fn a_zombie_holder_has_ended() {
    let mut child = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let here = |pid| Holder {
        pid,
        host: host_name(),
        slurm_job: None,
    };
    assert_eq!(here(child.id()).ended_here(), Some(false));
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    // Not waited for: a zombie once the kill has landed.
    let zombie = || {
        std::fs::read_to_string(format!("/proc/{}/stat", child.id()))
            .is_ok_and(|s| s.contains(") Z "))
    };
    let t0 = std::time::Instant::now();
    while !zombie() && t0.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(zombie());
    assert_eq!(here(child.id()).ended_here(), Some(true));
    child.wait().unwrap();
    assert_eq!(here(child.id()).ended_here(), Some(true));
}
