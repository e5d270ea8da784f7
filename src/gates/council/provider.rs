//! Providers: where a reviewer's answer comes from. A command (any CLI that
//! reads the prompt and writes the answer), or an OpenAI-compatible
//! chat-completions endpoint. Each call is its own process or request, so
//! reviewers never see each other's output.

pub use crate::gates::records::Usage;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use serde_json::{Value, json};

use super::settings::{Provider, Reach};

impl Usage {
    pub fn add(&mut self, other: &Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        if let Some(c) = other.cost {
            *self.cost.get_or_insert(0.0) += c;
        }
    }
}

/// A provider's reply: the answer text, or why there is none.
pub type Reply = std::result::Result<(String, Option<Usage>), String>;

/// A provider ready to be asked.
pub trait Ask: Sync {
    /// Ask `prompt` (with `system`, the reviewer's role) and wait for the answer.
    fn ask(&self, system: &str, prompt: &str) -> Reply;
}

/// Make a provider from its settings: a missing program or API key is an
/// error naming it, before anything is asked.
pub fn connect(provider: &Provider, root: &Path, env: &dyn Fn(&str) -> Option<String>) -> Result<Box<dyn Ask>> {
    match &provider.reach {
        Reach::Command(argv) => {
            let program = which::which_in(&argv[0], env("PATH"), root).map_err(|_| {
                anyhow!(
                    "council provider `{}`: `{}` is not installed or not on PATH; install it, or change gates.council.providers",
                    provider.name,
                    argv[0]
                )
            })?;
            Ok(Box::new(CommandProvider {
                program,
                args: argv[1..].to_vec(),
                root: root.to_path_buf(),
                timeout: provider.timeout,
            }))
        }
        Reach::OpenAi {
            base_url,
            model,
            api_key_env,
        } => {
            let key = match api_key_env {
                Some(var) => Some(env(var).filter(|k| !k.trim().is_empty()).ok_or_else(|| {
                    anyhow!(
                        "council provider `{}`: the environment variable {var} (api-key-env) is not set; export the API key there, or drop api-key-env for a server without one",
                        provider.name
                    )
                })?),
                None => None,
            };
            Ok(Box::new(OpenAi {
                url: format!("{}/chat/completions", base_url.trim_end_matches('/')),
                model: model.clone(),
                key,
                timeout: provider.timeout,
            }))
        }
    }
}

/// A program that reads the prompt on stdin, or from `{prompt}` / `{prompt-file}` arguments.
struct CommandProvider {
    program: PathBuf,
    args: Vec<String>,
    root: PathBuf,
    timeout: Duration,
}

impl Ask for CommandProvider {
    fn ask(&self, system: &str, prompt: &str) -> Reply {
        let text = format!("{system}\n\n{prompt}");
        let mut file = None;
        let mut on_stdin = true;
        let mut args = Vec::with_capacity(self.args.len());
        for arg in &self.args {
            if arg.contains("{prompt-file}") {
                if file.is_none() {
                    let mut f = tempfile::Builder::new()
                        .prefix("loki-gate-council-")
                        .suffix(".md")
                        .tempfile()
                        .map_err(|e| format!("could not write the prompt file: {e}"))?;
                    std::io::Write::write_all(&mut f, text.as_bytes())
                        .map_err(|e| format!("could not write the prompt file: {e}"))?;
                    file = Some(f);
                }
                let path = file.as_ref().expect("written above").path().display().to_string();
                args.push(arg.replace("{prompt-file}", &path));
                on_stdin = false;
            } else if arg.contains("{prompt}") {
                args.push(arg.replace("{prompt}", &text));
                on_stdin = false;
            } else {
                args.push(arg.clone());
            }
        }
        let mut cmd = std::process::Command::new(&self.program);
        cmd.args(&args);
        let input = on_stdin.then(|| text.into_bytes());
        let out = crate::process::run_with_input(cmd, &self.root, self.timeout, input)
            .map_err(|e| format!("could not start {}: {e:#}", self.program.display()))?;
        if let Some(why) = out.overflowed(&self.program.display().to_string()) {
            return Err(why);
        }
        if out.timed_out {
            return Err(format!("no answer within {}", crate::process::humanize(self.timeout)));
        }
        if !out.success() {
            let why = out.stderr.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
            let code = out.code.map_or_else(|| "a signal".to_string(), |c| c.to_string());
            return Err(format!(
                "exited with {code}{}",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(": {why}")
                }
            ));
        }
        Ok((out.stdout, None))
    }
}

/// An OpenAI-compatible chat-completions endpoint.
struct OpenAi {
    url: String,
    model: String,
    key: Option<String>,
    timeout: Duration,
}

/// How often a 429 or 5xx is tried again, at most (within the time limit).
const ATTEMPTS: u32 = 5;

/// The largest answer read, in bytes: a chat completion is a few KiB.
const MAX_ANSWER: u64 = 16 << 20;

impl Ask for OpenAi {
    fn ask(&self, system: &str, prompt: &str) -> Reply {
        let deadline = Instant::now() + self.timeout;
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": prompt},
            ],
        })
        .to_string();
        let mut last = String::new();
        for attempt in 0..ATTEMPTS {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .timeout_global(Some(left))
                .http_status_as_error(false)
                // A redirect is reported, never followed: following one
                // would send the prompt (and the key) somewhere unnamed.
                .max_redirects(0)
                .build()
                .into();
            let mut request = agent.post(&self.url).header("Content-Type", "application/json");
            if let Some(key) = &self.key {
                request = request.header("Authorization", &format!("Bearer {key}"));
            }
            let (status, retry_after, location, text) = match request.send(body.as_str()) {
                Ok(mut response) => {
                    let status = response.status().as_u16();
                    let header = |name: &str| {
                        response
                            .headers()
                            .get(name)
                            .and_then(|v| v.to_str().ok())
                            .map(|v| v.trim().to_string())
                    };
                    let retry_after = header("retry-after")
                        .and_then(|v| v.parse::<u64>().ok())
                        .map(Duration::from_secs);
                    let location = header("location");
                    let text = match response.body_mut().with_config().limit(MAX_ANSWER).read_to_string() {
                        Ok(text) => text,
                        Err(e) => return Err(self.unread(status, &e)),
                    };
                    (status, retry_after, location, text)
                }
                Err(ureq::Error::Timeout(_)) => {
                    return Err(format!("no answer within {}", crate::process::humanize(self.timeout)));
                }
                Err(e) => {
                    // Connection refused or reset: worth another try, like a 5xx.
                    last = format!("could not reach {}: {e}", self.url);
                    backoff(attempt, None, deadline);
                    continue;
                }
            };
            match status {
                200..=299 => return read_completion(&text),
                300..=399 => {
                    let to = location.map(|l| format!(" to {l}")).unwrap_or_default();
                    return Err(format!(
                        "{} answered {status}, a redirect{to}; redirects are not followed: set the provider's base-url to the address that answers",
                        self.url
                    ));
                }
                429 | 500..=599 => {
                    last = format!("{} answered {status}{}", self.url, brief(&text));
                    backoff(attempt, retry_after, deadline);
                }
                401 | 403 => {
                    return Err(format!(
                        "{} answered {status}{}: check the API key",
                        self.url,
                        brief(&text)
                    ));
                }
                _ => return Err(format!("{} answered {status}{}", self.url, brief(&text))),
            }
        }
        if last.is_empty() {
            last = format!("no answer within {}", crate::process::humanize(self.timeout));
        }
        Err(format!("{last} (gave up after retries)"))
    }
}

impl OpenAi {
    /// Why the answer's body (after status `status`) could not be read: it
    /// stopped coming in time, it is larger than [`MAX_ANSWER`], or the
    /// connection broke. Never "not JSON": the body was never whole.
    fn unread(&self, status: u16, e: &ureq::Error) -> String {
        match e {
            ureq::Error::Timeout(_) => format!(
                "{} answered {status} but the answer did not finish arriving within {}",
                self.url,
                crate::process::humanize(self.timeout)
            ),
            ureq::Error::BodyExceedsLimit(_) => format!(
                "{} answered {status} with more than {} MiB; a chat completion is a few KiB: check base-url",
                self.url,
                MAX_ANSWER >> 20
            ),
            other => format!(
                "{} answered {status} but the connection broke while the answer was read: {other}",
                self.url
            ),
        }
    }
}

/// Wait before the next attempt: the server's Retry-After, else 1, 2, 4, 8 s;
/// never past the deadline.
fn backoff(attempt: u32, retry_after: Option<Duration>, deadline: Instant) {
    let wait = retry_after.unwrap_or(Duration::from_secs(1 << attempt.min(3)));
    let left = deadline.saturating_duration_since(Instant::now());
    std::thread::sleep(wait.min(left));
}

/// The first line of an error body, for a message.
fn brief(body: &str) -> String {
    let line = body.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    if line.is_empty() {
        String::new()
    } else {
        format!(": {}", line.chars().take(200).collect::<String>())
    }
}

/// The answer text and usage of a chat-completions response.
fn read_completion(body: &str) -> Reply {
    let value: Value =
        serde_json::from_str(body).map_err(|e| format!("the response is not JSON ({e}): {}", brief(body)))?;
    let content = value["choices"][0]["message"]["content"]
        .as_str()
        .ok_or("the response has no choices[0].message.content")?;
    let usage = value.get("usage").filter(|u| u.is_object()).map(|u| Usage {
        prompt_tokens: u["prompt_tokens"].as_u64().unwrap_or(0),
        completion_tokens: u["completion_tokens"].as_u64().unwrap_or(0),
        cost: u["cost"].as_f64(),
    });
    Ok((content.to_string(), usage))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_give_their_content_and_usage() {
        let body = r#"{"choices":[{"message":{"role":"assistant","content":"{\"verdict\":\"approve\"}"}}],"usage":{"prompt_tokens":10,"completion_tokens":3,"cost":0.002}}"#;
        let (text, usage) = read_completion(body).unwrap();
        assert_eq!(text, r#"{"verdict":"approve"}"#);
        assert_eq!(
            usage,
            Some(Usage {
                prompt_tokens: 10,
                completion_tokens: 3,
                cost: Some(0.002)
            })
        );
        assert!(
            read_completion("<html>")
                .unwrap_err()
                .starts_with("the response is not JSON")
        );
        assert!(read_completion(r#"{"choices":[]}"#).unwrap_err().contains("no choices"));
    }
}
