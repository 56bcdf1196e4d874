; Derived predicates in two strata: `reachable` is recursive (stratum 0),
; `isolated` its negation (stratum 1). Only isolated nodes may be linked.
(define (domain network)
  (:requirements :typing :adl :derived-predicates)
  (:types node)
  (:predicates (source ?n - node) (link ?x ?y - node)
               (reachable ?n - node) (isolated ?n - node))
  (:derived (reachable ?n - node)
    (or (source ?n)
        (exists (?m - node) (and (reachable ?m) (link ?m ?n)))))
  (:derived (isolated ?n - node)
    (not (reachable ?n)))
  (:action connect
    :parameters (?x ?y - node)
    :precondition (and (reachable ?x) (isolated ?y))
    :effect (link ?x ?y)))
