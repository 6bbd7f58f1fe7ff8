use super::*;
use polars::prelude::Column;

const ID: PartId<'static> = PartId {
    experiment: "e",
    job: "h",
};

fn frame(from: i64, n: i64) -> DataFrame {
    DataFrame::new(
        n as usize,
        vec![
            Column::new("game".into(), (from..from + n).collect::<Vec<i64>>()),
            Column::new(
                "who".into(),
                (from..from + n)
                    .map(|i| format!("a{i}"))
                    .collect::<Vec<String>>(),
            ),
        ],
    )
    .unwrap()
}

fn setup(dir: &Path, format: Format) -> (PathBuf, PathBuf, PathBuf) {
    let record = dir.join("jobs/h.json");
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    std::fs::write(&record, "{\"hash\": \"h\"}").unwrap();
    (
        dir.join(format!("games/part-h.{}", format.ext())),
        record,
        dir.join("partial/h"),
    )
}

/// A job writing its rows (a batch, then the sealed part) runs no other job of its pool
/// meanwhile (see `pool::outside_workers`): else a finished job's part reached the disk only
/// when the jobs run inside its write had ended.
#[test]
fn a_job_writing_its_rows_runs_no_other_job_meanwhile() {
    for format in [Format::Parquet, Format::Csv] {
        let dir = tempfile::tempdir().unwrap();
        let (part, record, partial) = setup(dir.path(), format);
        let write = || {
            let mut s =
                JobStream::open(ID, format, part.clone(), record.clone(), partial.clone()).unwrap();
            s.save_batch(frame(0, 50_000), 1, serde_json::Value::Null)
                .unwrap();
            s.finish(frame(50_000, 50_000)).unwrap();
        };
        assert!(!crate::pool::second_task_ran_inside(write), "{format:?}");
    }
}

#[test]
fn batches_resume_after_a_kill_and_seal_into_one_part() {
    for format in [Format::Parquet, Format::Csv] {
        let dir = tempfile::tempdir().unwrap();
        let (part, record, partial) = setup(dir.path(), format);
        let id = ID;
        let mut s =
            JobStream::open(id, format, part.clone(), record.clone(), partial.clone()).unwrap();
        s.save_batch(frame(0, 3), 3, serde_json::json!([1]))
            .unwrap();
        s.save_batch(frame(3, 2), 5, serde_json::json!([2]))
            .unwrap();
        // A batch written just before a kill, not yet in the progress list.
        std::fs::write(
            partial.join(format!("batch-000002.{}", format.ext())),
            b"half",
        )
        .unwrap();
        drop(s);
        let s = JobStream::open(id, format, part.clone(), record.clone(), partial.clone()).unwrap();
        assert_eq!(s.units_done(), 5);
        assert_eq!(s.carry(), serde_json::json!([2]));
        assert!(
            !partial
                .join(format!("batch-000002.{}", format.ext()))
                .exists()
        );
        assert_eq!(s.finish(frame(5, 4)).unwrap(), 9);
        assert!(!partial.exists());
        assert_eq!(verify_part(&part, &record, id), Ok(Some(9)));
        let df = read_part(&part).unwrap();
        assert_eq!(
            df.column("game")
                .unwrap()
                .i64()
                .unwrap()
                .into_no_null_iter()
                .collect::<Vec<_>>(),
            (0..9).collect::<Vec<_>>()
        );
    }
}

#[test]
fn batches_are_joined_into_row_groups_of_the_minimum_size() {
    let n = ROW_GROUP_ROWS as i64;
    // 2.5 row groups' worth of rows in batches of a third of a group, and an empty last.
    let third = n / 3 + 1;
    let mut batches: Vec<DataFrame> = (0..7).map(|k| frame(k * third, third)).collect();
    batches.push(frame(7 * third, 0));
    let all = batches.iter().skip(1).fold(batches[0].clone(), |mut a, b| {
        a.vstack_mut(b).unwrap();
        a
    });
    let groups: Vec<DataFrame> = RowGroups {
        frames: batches.into_iter().map(Ok),
        held: None,
    }
    .collect::<Result<_>>()
    .unwrap();
    let heights: Vec<usize> = groups.iter().map(DataFrame::height).collect();
    assert_eq!(
        heights,
        [3 * third as usize, 3 * third as usize, third as usize]
    );
    assert!(
        groups.iter().all(|g| g.first_col_n_chunks() == 1),
        "one chunk, one row group"
    );
    let joined = groups.iter().skip(1).fold(groups[0].clone(), |mut a, b| {
        a.vstack_mut(b).unwrap();
        a
    });
    assert!(joined.equals(&all), "the same rows in the same order");
}

#[test]
fn a_batched_part_is_the_part_an_unbatched_run_writes() {
    for format in [Format::Parquet, Format::Csv] {
        let dir = tempfile::tempdir().unwrap();
        let (part, record, partial) = setup(dir.path(), format);
        let id = ID;
        let mut s = JobStream::open(id, format, part.clone(), record.clone(), partial).unwrap();
        s.save_batch(frame(0, 3), 3, serde_json::Value::Null)
            .unwrap();
        s.save_batch(frame(3, 4), 7, serde_json::Value::Null)
            .unwrap();
        s.finish(frame(7, 2)).unwrap();
        let other = dir.path().join(format!("other/part-h.{}", format.ext()));
        write_part(&other, &record, frame(0, 9), format, id).unwrap();
        if format == Format::Csv {
            assert_eq!(
                std::fs::read(&part).unwrap(),
                std::fs::read(&other).unwrap(),
                "byte for byte"
            );
        }
        assert!(
            read_part(&part)
                .unwrap()
                .equals(&read_part(&other).unwrap())
        );
        // Parts of one name in two folders keep two seals.
        assert_eq!(verify_part(&part, &record, id), Ok(Some(9)));
        assert_eq!(verify_part(&other, &record, id), Ok(Some(9)));
    }
}

#[test]
fn a_batch_that_fails_its_seal_is_played_again_with_everything_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let (part, record, partial) = setup(dir.path(), Format::Parquet);
    let id = ID;
    let mut s = JobStream::open(
        id,
        Format::Parquet,
        part.clone(),
        record.clone(),
        partial.clone(),
    )
    .unwrap();
    for k in 0..3 {
        s.save_batch(
            frame(k * 2, 2),
            (k as usize + 1) * 2,
            serde_json::Value::Null,
        )
        .unwrap();
    }
    std::fs::write(partial.join("batch-000001.parquet"), b"garbage").unwrap();
    let s = JobStream::open(id, Format::Parquet, part, record, partial.clone()).unwrap();
    assert_eq!(
        s.units_done(),
        2,
        "only the batch before the bad one is kept"
    );
    assert!(!partial.join("batch-000002.parquet").exists());
}

#[test]
fn a_part_fails_its_check_when_cut_changed_emptied_or_copied_from_another_job() {
    for format in [Format::Parquet, Format::Csv] {
        let dir = tempfile::tempdir().unwrap();
        let (part, record, _) = setup(dir.path(), format);
        let id = ID;
        write_part(&part, &record, frame(0, 50), format, id).unwrap();
        assert_eq!(verify_part(&part, &record, id), Ok(Some(50)));
        let good = std::fs::read(&part).unwrap();
        std::fs::write(&part, &good[..good.len() - 7]).unwrap();
        assert!(
            verify_part(&part, &record, id)
                .unwrap_err()
                .contains("bytes")
        );
        std::fs::write(&part, b"").unwrap();
        assert!(verify_part(&part, &record, id).is_err());
        let mut changed = good.clone();
        let mid = changed.len() / 2;
        changed[mid] ^= 1;
        std::fs::write(&part, &changed).unwrap();
        assert!(
            verify_part(&part, &record, id)
                .unwrap_err()
                .contains("checksum")
        );
        // Another job's part under this job's name (its rows name their own job, so they differ).
        let other = dir.path().join(format!("games/part-g.{}", format.ext()));
        let other_record = dir.path().join("jobs/g.json");
        std::fs::write(&other_record, "{}").unwrap();
        write_part(
            &other,
            &other_record,
            frame(100, 50),
            format,
            PartId {
                experiment: "e",
                job: "g",
            },
        )
        .unwrap();
        std::fs::copy(&other, &part).unwrap();
        assert!(verify_part(&part, &record, id).is_err());
        // No seal in the record: an older gamelab's part.
        std::fs::write(&record, "{}").unwrap();
        std::fs::write(&part, &good).unwrap();
        assert!(
            verify_part(&part, &record, id)
                .unwrap_err()
                .contains("no seal")
        );
    }
}

#[test]
fn a_parquet_part_names_its_job_in_its_own_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let (part, record, _) = setup(dir.path(), Format::Parquet);
    write_part(
        &part,
        &record,
        frame(0, 5),
        Format::Parquet,
        PartId {
            experiment: "e",
            job: "h",
        },
    )
    .unwrap();
    // The same file checked as another job's part: its metadata names job h.
    let err = verify_part(
        &part,
        &record,
        PartId {
            experiment: "e",
            job: "zz",
        },
    )
    .unwrap_err();
    assert!(err.contains("job h"), "{err}");
}

#[test]
fn batches_are_removed_only_when_every_file_is_the_streams_own() {
    for own in [
        "batch-000000.parquet",
        "batch-000012.csv",
        "progress.json",
        ".progress.json.tmp-77",
        ".batch-000003.csv.tmp-9",
    ] {
        assert!(is_batch_file(own), "{own}");
    }
    for other in [
        "batch-.csv",
        "batch-1.txt",
        "progress.json.bak",
        ".progress.json.tmp-",
        "notes.md",
        "batch-1a.csv",
    ] {
        assert!(!is_batch_file(other), "{other}");
    }
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("partial/h");
    std::fs::create_dir_all(&partial).unwrap();
    std::fs::write(partial.join("batch-000000.csv"), b"a").unwrap();
    std::fs::write(partial.join("notes.md"), b"mine").unwrap();
    let err = remove_batches(&partial).unwrap_err();
    assert!(err.to_string().contains("notes.md"), "{err}");
    assert_eq!(std::fs::read(partial.join("notes.md")).unwrap(), b"mine");
    std::fs::remove_file(partial.join("notes.md")).unwrap();
    remove_batches(&partial).unwrap();
    assert!(
        !dir.path().join("partial").exists(),
        "the emptied folder of all batches goes too"
    );
}

/// A part checked in full once is stamped (`Checked`) and later checks read only its footer;
/// a change after the stamp (same size, one byte flipped in place) moves the file's ctime and
/// is caught by a full check again; a part whose status changed a moment ago is not stamped.
#[test]
fn a_stamped_part_changed_in_place_is_still_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (part, record, _) = setup(dir.path(), Format::Parquet);
    write_part(&part, &record, frame(0, 50), Format::Parquet, ID).unwrap();
    let stamp = dir.path().join("checked/h.games.json");
    assert_eq!(verify_part(&part, &record, ID), Ok(Some(50)));
    assert!(
        !stamp.exists(),
        "a part written a moment ago is not stamped"
    );
    std::thread::sleep(Checked::SETTLED + std::time::Duration::from_millis(100));
    assert_eq!(verify_part(&part, &record, ID), Ok(Some(50)));
    assert!(stamp.exists(), "a settled part checked in full is stamped");
    assert_eq!(verify_part(&part, &record, ID), Ok(Some(50)));
    // One byte flipped in place, the size unchanged.
    let mut bytes = std::fs::read(&part).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    let mut f = std::fs::OpenOptions::new().write(true).open(&part).unwrap();
    f.write_all(&bytes).unwrap();
    drop(f);
    assert!(
        verify_part(&part, &record, ID)
            .unwrap_err()
            .contains("checksum")
    );
}

/// `write_through` (the writer thread of `kind::streamed`): batches saved as they come and the
/// part sealed after the last rows; a producer that stops before its last rows leaves no part
/// and no temporary file, but its saved batches, which the next run resumes after and seals
/// with its own rows, in order.
#[test]
fn a_stream_written_through_seals_after_its_last_rows_and_a_stop_before_them_seals_nothing() {
    for format in [Format::Parquet, Format::Csv] {
        let dir = tempfile::tempdir().unwrap();
        let (part, record, partial) = setup(dir.path(), format);
        let open = || JobStream::open(ID, format, part.clone(), record.clone(), partial.clone());
        let stopped = open().unwrap().write_through(
            &mut vec![
                Ok(Handed::Batch(frame(0, 3), 3, serde_json::json!([1]))),
                Ok(Handed::Batch(frame(3, 2), 5, serde_json::json!([2]))),
            ]
            .into_iter(),
        );
        let why = format!("{:#}", stopped.expect_err("no last rows: not sealed"));
        assert!(why.contains("not sealed"), "{format:?}: {why}");
        assert!(!part.exists(), "{format:?}");
        let games = part.parent().unwrap();
        let left: Vec<_> = std::fs::read_dir(games)
            .map(|d| d.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "{format:?}: {left:?}");
        let s = open().unwrap();
        assert_eq!((s.units_done(), s.carry()), (5, serde_json::json!([2])));
        let rows = s
            .write_through(
                &mut vec![
                    Ok(Handed::Batch(frame(5, 4), 9, serde_json::json!([3]))),
                    Ok(Handed::Last(
                        frame(9, 1),
                        Some((10, serde_json::json!([4]))),
                    )),
                ]
                .into_iter(),
            )
            .unwrap();
        assert_eq!(rows, 10, "{format:?}");
        let games: Vec<i64> = read_part(&part).unwrap()["game"]
            .i64()
            .unwrap()
            .into_no_null_iter()
            .collect();
        assert_eq!(games, (0..10).collect::<Vec<_>>(), "{format:?}");
        assert_eq!(
            ended(&record),
            Some((10, serde_json::json!([4]))),
            "{format:?}"
        );
        assert!(!partial.exists(), "{format:?}");
        verify_part(&part, &record, ID).expect("sealed and sound");
    }
}
