mod common;
use common::*;
#[test]
fn probe() {
    let d = shared().join("csci306");
    for (dir, l, s) in [
        ("csci306", "ClueLayoutBadRoom306.csv", "ClueSetup306.txt"),
        ("csci306", "ClueLayoutBadColumns306.csv", "ClueSetup306.txt"),
        ("csci306", "ClueLayout306.csv", "ClueSetupBadFormat306.txt"),
        (
            "csci306/variants/crlf",
            "ClueLayoutBadRoom306.csv",
            "ClueSetup306.txt",
        ),
        (
            "csci306/variants/crlf",
            "ClueLayoutBadColumns306.csv",
            "ClueSetup306.txt",
        ),
        (
            "csci306/variants/crlf",
            "ClueLayout306.csv",
            "ClueSetupBadFormat306.txt",
        ),
        (
            "csci306/variants/older-bad-files",
            "ClueLayoutBadRoom306.csv",
            "../../ClueSetup306.txt",
        ),
        (
            "csci306/variants/older-bad-files",
            "ClueLayoutBadColumns306.csv",
            "../../ClueSetup306.txt",
        ),
        (
            "csci306/variants/older-bad-files",
            "../../ClueLayout306.csv",
            "ClueSetupBadFormat306.txt",
        ),
        (
            "nonconforming/JPBROHM-ClueGame",
            "ClueLayout.csv",
            "ClueSetup.txt",
        ),
        (
            "nonconforming/amfunk-ClueGame",
            "ClueLayout.csv",
            "ClueSetup.txt",
        ),
        (
            "nonconforming/jlwoolf-ClueGame",
            "ClueLayout.csv",
            "ClueSetup.txt",
        ),
    ] {
        let _ = &d;
        match load(&shared().join(dir), l, s) {
            Ok(b) => println!(
                "{dir}: OK {}x{} rooms {} doors {}\n{}",
                b.rows(),
                b.cols(),
                b.rooms().len(),
                b.door_count(),
                b.render(false, &[], &[])
            ),
            Err(e) => println!("{dir}: {e}"),
        }
    }
    println!("{}", reference().render(false, &[], &[]));
}
