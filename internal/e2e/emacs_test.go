package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEmacsEglot is the second real client: Emacs with Eglot (Debian's
// emacs-nox and elpa-eglot), configured by the shipped
// editors/emacs/pallas-ls.el, opens the fixture project, waits for
// PAL101 in Flymake, reads the inlay hints, walks the call hierarchy to the
// entry, asks for the status and applies the "Ignore PAL101" code action
// through Eglot's own edit machinery. It fails (rather than skips) under
// CI when Emacs or Eglot is missing.
func TestEmacsEglot(t *testing.T) {
	emacs, err := exec.LookPath("emacs")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("emacs is not installed; scripts/test installs Debian's emacs-nox and elpa-eglot")
		}
		t.Skip("emacs not installed")
	}
	root := repoRoot(t)
	bin := filepath.Dir(buildBinary(t))
	proj := t.TempDir()
	writeFixture(t, proj)
	out := filepath.Join(t.TempDir(), "result")
	script := filepath.Join(t.TempDir(), "e2e.el")
	if err := os.WriteFile(script, []byte(elispScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-Q", "-l", script)
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"E2E_FILE="+filepath.Join(proj, "ring.py"), "E2E_OUT="+out, "HOME="+t.TempDir(),
		"E2E_CONFIG="+filepath.Join(root, "editors", "emacs", "pallas-ls.el"))
	log, runErr := cmd.CombinedOutput()
	res, _ := os.ReadFile(out)
	if strings.HasPrefix(string(res), "SKIP") && os.Getenv("CI") != "true" {
		t.Skip(string(res))
	}
	if !strings.HasPrefix(string(res), "OK") {
		t.Fatalf("emacs end-to-end failed: %s (emacs: %v)\n%s", res, runErr, log)
	}
	t.Log(string(res))
	fixed, _ := os.ReadFile(filepath.Join(proj, "ring.py"))
	if !strings.Contains(string(fixed), "# pallas-ls: ignore[PAL101]") {
		t.Errorf("the code action did not reach the file:\n%s", fixed)
	}
}

// elispScript runs inside Emacs; it reports through the file $E2E_OUT.
const elispScript = `;; -*- lexical-binding: t -*-
(defun e2e-finish (status msg)
  (with-temp-file (getenv "E2E_OUT") (insert status " " msg))
  (kill-emacs (if (equal status "OK") 0 1)))

(defmacro e2e-wait (secs &rest cond)
  "Wait up to SECS seconds for COND, serving the server meanwhile."
  (let ((deadline (make-symbol "deadline")))
    ` + "`" + `(let ((,deadline (+ (float-time) ,secs)))
       (while (and (not (progn ,@cond)) (< (float-time) ,deadline))
         (accept-process-output nil 0.05))
       (progn ,@cond))))

(condition-case err
    (progn
      ;; Debian installs ELPA packages under site-lisp/elpa; -Q skips them.
      (dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
        (add-to-list 'load-path dir))
      (unless (require 'eglot nil t) (e2e-finish "SKIP" "eglot is not installed"))
      (load (getenv "E2E_CONFIG"))
      (setq eglot-sync-connect t eglot-autoshutdown t)
      (let ((dir (file-name-directory (getenv "E2E_FILE"))))
        (add-hook 'project-find-functions (lambda (_) (cons 'transient dir))))
      (find-file (getenv "E2E_FILE"))
      (python-mode)
      (call-interactively #'eglot)
      (unless (e2e-wait 30 (eglot-current-server)) (e2e-finish "FAIL" "eglot did not connect"))
      (flymake-mode 1)
      (let ((pal101 (lambda ()
                      (flymake-start)
                      (cl-find-if (lambda (d) (string-match-p "PAL101" (flymake-diagnostic-text d)))
                                  (flymake-diagnostics)))))
        (unless (e2e-wait 30 (funcall pal101)) (e2e-finish "FAIL" "no PAL101 diagnostic within 30s"))
        (let* ((labels (pallas-ls-labels))
               (want "TPU · communicates on x · outside shard_map")
               (label (cl-find-if (lambda (l) (equal (cdr l) want)) labels)))
          (unless label (e2e-finish "FAIL" (format "inlay hints %S lack %S" labels want)))
          (goto-char (point-min))
          (forward-line 14)
          (forward-char 14)
          (let ((chains (pallas-ls-call-chain)))
            (unless (and chains (string-match-p "module top level" (car (last (car chains)))))
              (e2e-finish "FAIL" (format "call hierarchy %S does not reach the entry" chains)))
            (let ((st (pallas-ls-status)))
              (unless (equal (plist-get st :jaxVersion) "0.11")
                (e2e-finish "FAIL" (format "status %S" st))))
            ;; The code action, applied by Eglot.
            (let* ((d (funcall pal101))
                   (actions (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d) "quickfix"))
                   (ignore (cl-find-if (lambda (a) (string-match-p "Ignore PAL101" (plist-get a :title))) actions)))
              (unless ignore (e2e-finish "FAIL" (format "no Ignore PAL101 action among %S" actions)))
              (eglot--apply-workspace-edit (plist-get ignore :edit))
              (save-buffer)
              (unless (e2e-wait 30 (not (funcall pal101)))
                (e2e-finish "FAIL" "PAL101 still shown after the code action"))
              (e2e-finish "OK" (format "emacs %s + eglot: hint on line %d: %s; hierarchy: %s; applied: %s"
                                       emacs-version (car label) (cdr label)
                                       (string-join (car chains) " <- ") (plist-get ignore :title))))))))
  (error (e2e-finish "FAIL" (format "lisp error: %S" err))))
`
