;;; pallas-ls.el --- pallas-ls for Emacs with Eglot  -*- lexical-binding: t; -*-

;; Load this file (M-x load-file, or `(load "/path/to/pallas-ls.el")' in
;; init.el) and run M-x eglot in a Python buffer, or add
;;   (add-hook 'python-mode-hook #'eglot-ensure)
;; Works with Eglot 1.9 (Debian 12's elpa-eglot, Emacs 28) and later.
;;
;; Diagnostics, hovers and code actions are Eglot's own.  Eglot before 1.12
;; shows neither inlay hints nor code lenses, so the context labels of
;; kernel calls and shard_maps are shown by `pallas-ls-show-context' (in the
;; echo area, for the line at point); Eglot 1.12+ shows them as inlay
;; hints (`eglot-inlay-hints-mode').  `pallas-ls-callers' walks the call
;; hierarchy from the kernel call at point up to the entry,
;; `xref-find-definitions' on a kernel call goes to its shard_map, and
;; `pallas-ls-status' tells the JAX version, platform and why.

(require 'eglot)
(require 'cl-lib)

(defgroup pallas-ls nil "pallas-ls, the JAX Pallas kernel checker." :group 'tools)

(defcustom pallas-ls-settings
  '(:jaxVersion "" :platform "" :tpuChip "" :contextLabels "inlayHints"
    :select [] :ignore [] :showInfo t)
  "The pallas-ls settings sent as initializationOptions.
Empty strings and lists leave the project's pyproject.toml in charge.
:platform is \"auto\", \"tpu\" or \"gpu\"; :contextLabels is \"auto\",
\"inlayHints\", \"codeLens\", \"both\" or \"off\"."
  :type 'plist)

(defclass pallas-ls-server (eglot-lsp-server) ()
  :documentation "The pallas-ls language server.")

(cl-defmethod eglot-initialization-options ((_server pallas-ls-server))
  pallas-ls-settings)

(add-to-list 'eglot-server-programs
             '(python-mode . (pallas-ls-server "pallas-ls" "serve")))

(defun pallas-ls--request (method params)
  (jsonrpc-request (eglot--current-server-or-lose) method params))

(defun pallas-ls--position ()
  (list :textDocument (eglot--TextDocumentIdentifier)
        :position (eglot--pos-to-lsp-position)))

(defun pallas-ls-labels ()
  "The context labels of the current buffer, as (LINE . TEXT), LINE from 1."
  (cl-loop for h across (pallas-ls--request
                         :textDocument/inlayHint
                         (list :textDocument (eglot--TextDocumentIdentifier)
                               :range (list :start '(:line 0 :character 0)
                                            :end (list :line (count-lines (point-min) (point-max))
                                                       :character 0))))
           collect (cons (1+ (plist-get (plist-get h :position) :line))
                         (plist-get h :label))))

(defun pallas-ls-show-context ()
  "Show the context labels of the line at point."
  (interactive)
  (let* ((line (line-number-at-pos))
         (here (cl-loop for (l . text) in (pallas-ls-labels)
                        when (= l line) collect text)))
    (message "%s" (if here (string-join here "  |  ") "pallas-ls: no kernel call or shard_map on this line"))))

(defun pallas-ls-call-chain ()
  "The call hierarchy from the kernel call at point: a list of chains, one
per context, each a list of item names from the kernel call to the entry."
  (let ((items (pallas-ls--request :textDocument/prepareCallHierarchy (pallas-ls--position))))
    (when (> (length items) 0)
      (let ((top (aref items 0)))
        (cl-loop for call across (pallas-ls--request :callHierarchy/incomingCalls (list :item top))
                 collect
                 (let ((item (plist-get call :from))
                       (chain (list (plist-get top :name))))
                   (cl-loop repeat 50
                            do (push (plist-get item :name) chain)
                            for next = (pallas-ls--request :callHierarchy/incomingCalls (list :item item))
                            while (> (length next) 0)
                            do (setq item (plist-get (aref next 0) :from)))
                   (nreverse chain)))))))

(defun pallas-ls-callers ()
  "Show how the kernel call at point is reached, one line per context."
  (interactive)
  (let ((chains (pallas-ls-call-chain)))
    (if (null chains)
        (message "pallas-ls: no kernel call at point")
      (with-current-buffer (get-buffer-create "*pallas-ls callers*")
        (erase-buffer)
        (dolist (c chains) (insert (string-join c "  <-  ") "\n"))
        (display-buffer (current-buffer))))))

(defun pallas-ls-status ()
  "The JAX version, platform and why, for the current buffer."
  (interactive)
  (let ((st (pallas-ls--request :workspace/executeCommand
                                (list :command "pallas-ls.status"
                                      :arguments (vector (eglot--path-to-uri (buffer-file-name)))))))
    (message "%s: JAX %s (%s); platform %s (%s)"
             (plist-get st :server) (plist-get st :jaxVersion) (plist-get st :jaxVersionReason)
             (plist-get st :platform) (plist-get st :platformReason))
    st))

(provide 'pallas-ls)
;;; pallas-ls.el ends here
