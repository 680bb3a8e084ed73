//! rustkit: small text, number and geometry helpers (an example crate for CodeMidas).

pub mod geom;
pub mod numbers;
pub mod text;

/// The crate's version, as Cargo.toml says it.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
