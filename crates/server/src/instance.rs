//! The name an instance holds its tables' leases under, when the operator gives none.

/// `HOST/ADDR`: the same for a server restarted with the same command line on the same machine
/// (so it takes its tables back at once), different for two instances on one machine (they
/// listen on different addresses) or on two machines.
pub fn default_instance(addr: &str) -> String {
    format!("{}/{addr}", host_name())
}

#[cfg(unix)]
fn host_name() -> String {
    rustix::system::uname().nodename().to_string_lossy().into_owned()
}

#[cfg(not(unix))]
fn host_name() -> String {
    "localhost".to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_instance_names_the_host_and_the_address() {
        let name = super::default_instance("127.0.0.1:8080");
        assert!(name.ends_with("/127.0.0.1:8080"), "{name}");
        assert!(name.len() > "/127.0.0.1:8080".len(), "{name}");
    }
}
