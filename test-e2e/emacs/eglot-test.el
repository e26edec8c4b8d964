;;; eglot-test.el --- drive synclint's bundled language server from Emacs (batch) -*- lexical-binding: t -*-
;; Run by test-e2e/emacs.js:
;;   emacs --batch -Q -l eglot-test.el  (env SYNCLINT_SERVER=dist/server.js, SYNCLINT_FILE=<copy of train.py>)
;; Checks: diagnostics on the expected lines (as Flymake diagnostics of eglot), the hover on `.item()`,
;; and the "Disable ... for this line" code action applied by eglot to the buffer.

(dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
  (add-to-list 'load-path dir))
(require 'eglot)
(require 'python)

(defvar synclint-failures 0)
(defvar synclint-passes 0)
(defun synclint-check (name ok &optional detail)
  (if ok (setq synclint-passes (1+ synclint-passes)) (setq synclint-failures (1+ synclint-failures)))
  (message "%s  %s%s" (if ok "ok  " "FAIL") name (if (and detail (not ok)) (format ": %s" detail) "")))

(defun synclint-wait (predicate seconds)
  "Process server output until PREDICATE holds or SECONDS pass."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    (funcall predicate)))

(let* ((server-js (getenv "SYNCLINT_SERVER"))
       (file (getenv "SYNCLINT_FILE"))
       (node (or (getenv "SYNCLINT_NODE") "node"))
       (published nil))
  (advice-add 'eglot-handle-notification :before
              (lambda (_server method &rest params)
                (when (eq method 'textDocument/publishDiagnostics)
                  (setq published (plist-get params :diagnostics)))))
  (setq eglot-server-programs `((python-mode . (,node ,server-js "--stdio"))))
  (setq eglot-sync-connect 10 eglot-autoshutdown t eglot-events-buffer-size 0)
  (find-file file)
  (python-mode)
  (let ((server (eglot--connect '(python-mode) (cons 'transient (file-name-directory file)) 'eglot-lsp-server
                                `(,node ,server-js "--stdio") "python")))
    (synclint-wait (lambda () (eglot-current-server)) 10)
    (synclint-check "eglot connects to dist/server.js" (eq (eglot-current-server) server))
    (synclint-wait (lambda () published) 20)
    (let ((lines (sort (mapcar (lambda (d) (1+ (plist-get (plist-get (plist-get d :range) :start) :line))) published) #'<)))
      (synclint-check "diagnostics on lines 6 and 15" (equal lines '(6 15)) lines)
      (let ((flymake (sort (mapcar (lambda (d) (line-number-at-pos (flymake-diagnostic-beg d))) (flymake-diagnostics)) #'<)))
        (synclint-check "Flymake shows them" (equal flymake '(6 15)) flymake)))
    ;; Hover on `.item()` of line 15.
    (goto-char (point-min))
    (forward-line 14)
    (search-forward "loss.item")
    (backward-char 2)
    (let* ((hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))
           (value (plist-get (plist-get hover :contents) :value))
           (rendered (and hover (eglot--hover-info (plist-get hover :contents)))))
      (synclint-check "hover explains the sync in four parts"
                      (and value (cl-every (lambda (part) (string-match-p (regexp-quote part) value))
                                           '("Why this site is considered hot" "Why it costs" "What happens" "Use instead")))
                      value)
      (synclint-check "eglot renders the hover" (and rendered (string-match-p "item-in-hot-path" rendered)) rendered)
      (message "hover (first line): %s" (car (split-string (or rendered "") "\n"))))
    ;; Code action "Disable `item-in-hot-path` for this line", applied with eglot's own workspace-edit code.
    (let* ((diag (seq-find (lambda (d) (equal (plist-get d :code) "item-in-hot-path")) published))
           (actions (jsonrpc-request server :textDocument/codeAction
                                     (list :textDocument (eglot--TextDocumentIdentifier)
                                           :range (plist-get diag :range)
                                           :context (list :diagnostics (vector diag)))))
           (titles (mapcar (lambda (a) (plist-get a :title)) actions))
           (disable (seq-find (lambda (a) (string-match-p "for this line" (plist-get a :title))) actions)))
      (message "code actions: %S" titles)
      (synclint-check "code actions offered" disable titles)
      (setq published nil)
      (when disable (eglot--apply-workspace-edit (plist-get disable :edit)))
      (goto-char (point-min))
      (forward-line 14)
      (let ((line (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
        (synclint-check "the line gains # synclint: ignore[item-in-hot-path]"
                        (string-suffix-p "# synclint: ignore[item-in-hot-path]" line) line))
      ;; eglot sends didChange from an idle timer; send it now, as eglot does before each of its requests.
      (eglot--signal-textDocument/didChange)
      (synclint-wait (lambda () published) 20)
      (let ((lines (mapcar (lambda (d) (1+ (plist-get (plist-get (plist-get d :range) :start) :line))) published)))
        (synclint-check "the diagnostic on line 15 is gone" (equal lines '(6)) lines)))
    (eglot-shutdown server)))

(message "%d passed, %d failed" synclint-passes synclint-failures)
(kill-emacs (if (> synclint-failures 0) 1 0))
