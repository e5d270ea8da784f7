pub mod config { pub mod yaml; }
