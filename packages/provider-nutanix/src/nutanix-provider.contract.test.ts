import test from 'ava';
import { describeProviderContract } from '@wmco/core/testing';
import { nutanixProvider } from './nutanix-provider.js';

describeProviderContract(test, nutanixProvider);
