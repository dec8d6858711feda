//! The store's behaviour, run once per backend: a SQLite file and a fresh PostgreSQL
//! database (see `common` for `MCP_ELICIT_TEST_PG`).

mod common;

mod backends {
    pub(crate) mod elicitations;
    pub(crate) mod flows;
    pub(crate) mod sessions;
    pub(crate) mod startup;
    pub(crate) mod vault;
}

/// One module per backend, one `#[tokio::test]` per case; each test gets a fresh
/// database from `common::<backend>()`.
macro_rules! backend_tests {
    ($($backend:ident),+ $(,)?) => {
        $(
            mod $backend {
                backend_tests!(@cases $backend;
                    elicitations::insert_get_and_duplicate,
                    elicitations::transitions_follow_the_lifecycle,
                    elicitations::users_are_isolated,
                    elicitations::list_is_ordered_by_creation,
                    elicitations::remove_and_remove_session_forms,
                    elicitations::sweep_removes_exactly_the_expired,
                    elicitations::concurrent_completion_succeeds_once,
                    elicitations::concurrent_completion_across_pools,
                    elicitations::records_survive_reconnect,
                    elicitations::completes_through_the_server_registry_on_another_node,
                    elicitations::quota_is_exact_under_concurrent_inserts,
                    elicitations::expired_records_never_count_toward_the_quota,
                    elicitations::app_data_round_trips,
                    flows::flows_keep_purpose_and_one_outcome,
                    flows::flows_are_shared_and_answered_once,
                    flows::sign_ins_are_taken_once_and_sealed,
                    flows::sign_in_rows_do_not_decrypt_under_another_state,
                    vault::secret_round_trip,
                    vault::nothing_secret_is_stored_in_clear,
                    vault::moved_rows_fail_to_decrypt,
                    vault::wrong_key_fails_and_rotation_works,
                    vault::debug_output_holds_no_secret,
                    vault::tokens_round_trip,
                    vault::oauth_state_is_taken_once_by_its_user,
                    vault::expired_oauth_state_is_refused,
                    vault::concurrent_state_takes_succeed_once,
                    vault::corrupt_rows_are_errors,
                    sessions::browser_session_lifecycle,
                    sessions::browser_sessions_end,
                    sessions::session_rows_cannot_be_reassigned,
                    startup::nodes_start_together_on_a_new_database,
                    startup::new_sqlite_files_are_private,
                );
            }
        )+
    };
    (@cases $backend:ident; $($group:ident :: $case:ident),+ $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                let db = crate::common::$backend().await;
                crate::backends::$group::$case(&db).await;
            }
        )+
    };
}

backend_tests!(sqlite_file, postgres);
