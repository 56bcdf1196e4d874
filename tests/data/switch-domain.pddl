; A tiny domain for exit-code tests: lamps that can be switched on, and
; (for the one-way case) a fuse that burns out.
(define (domain switches)
  (:requirements :strips :typing)
  (:types lamp)
  (:predicates (on ?l - lamp) (off ?l - lamp) (fuse-ok) (wired ?l - lamp))
  (:action switch-on
    :parameters (?l - lamp)
    :precondition (and (off ?l) (wired ?l) (fuse-ok))
    :effect (and (on ?l) (not (off ?l)) (not (fuse-ok)))))
