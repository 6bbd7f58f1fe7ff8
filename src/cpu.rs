//! Which instruction sets this machine has, for the hot loops compiled twice: once for the
//! x86-64 baseline every build targets, once for x86-64-v3 (AVX2, BMI1/2, POPCNT, LZCNT; every
//! x86 CPU since about 2015). The second copy is chosen at run time when the CPU has those
//! features, so one binary runs everywhere and runs fast where it can. Othello perft, the
//! Colosseum fill and every playout (`agent::rollout::playout`) dispatch through `x86_v3`.
//!
//! `GAMELAB_CPU=baseline` in the environment makes every dispatch take the baseline copy, to
//! time or test it on a machine that has the features (both copies compute the same results).

use std::sync::OnceLock;

/// True on an x86-64 CPU with AVX2, BMI1, BMI2, POPCNT and LZCNT, unless `GAMELAB_CPU=baseline`
/// (checked once, then cached). Always false elsewhere.
#[inline]
pub fn x86_v3() -> bool {
    static V3: OnceLock<bool> = OnceLock::new();
    *V3.get_or_init(|| detect_x86_v3() && std::env::var("GAMELAB_CPU").as_deref() != Ok("baseline"))
}

fn detect_x86_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
