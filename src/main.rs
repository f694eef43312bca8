#![forbid(unsafe_code)]
fn main() {
    std::process::exit(m3go::cli::run(std::env::args_os()));
}
