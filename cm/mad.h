/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CM MAD agent of a port: registration on the GSI QP for management
 * class 0x07, class version 2, method SEND, and the receive/send handlers.
 */
#ifndef _PDCM_MAD_H
#define _PDCM_MAD_H

struct pdcm_port;

int pdcm_mad_register(struct pdcm_port *port);
void pdcm_mad_unregister(struct pdcm_port *port);

#endif /* _PDCM_MAD_H */
